// The playground's page: the editor, its diagnostics and rules sheet, the examples, the table
// against bots, the simulation and the share link. Everything ninety does happens in the
// workers (workers.js); this thread only draws, so it stays responsive.
import { createEditor, setText, showTokens, showDiagnostics } from './editor.js';
import { Worker2, PanicError } from './workers.js';
import { encode, decode } from './share.js';

const STORE = 'ninety-playground-text';
// A check as you type (the checker's every diagnostic, as an editor's language server checks
// each change), then, once typing pauses, the full check (the scenarios run and the games of
// `ninety check`'s dry run played, as on saving a file).
const CHECK_DELAY_MS = 150;
const FULL_CHECK_DELAY_MS = 600;
const $ = (name) => document.querySelector(`[data-test="${name}"]`);
const byId = (id) => document.getElementById(id);

function showPanic(message) {
  const box = byId('panic');
  box.hidden = false;
  byId('panic-text').textContent = `ninety crashed (a bug: please report it), and was started again: ${message}`;
}

const engine = new Worker2('engine', (message) => {
  showPanic(message);
  // The new worker knows nothing yet: give it the text again (the game is gone with the old).
  scheduleCheck(0);
  clearTable('the engine was started again: start a new game');
});
// The simulation's worker starts on the first run: loading the page compiles the module once.
let simWorker = null;
function sim() {
  simWorker ??= new Worker2('sim', (message) => {
    showPanic(message);
    byId('sim-status').textContent = 'the simulation crashed and was started again';
    $('sim-run').disabled = false;
    $('judge-run').disabled = false;
  });
  return simWorker;
}

let view = null;
let checkTimer = null;
let fullTimer = null;
let checking = 0;
let shareTimer = null;

function text() {
  return view.state.doc.toString();
}

function renderDiagnostics(list) {
  const ul = $('diagnostics');
  ul.replaceChildren();
  for (const d of list) {
    const li = document.createElement('li');
    li.className = `diag diag-${d.severity}`;
    li.setAttribute('data-line', String(d.from.line + 1));
    const line = document.createElement('span');
    line.className = 'diag-line';
    line.textContent = `line ${d.from.line + 1}`;
    const msg = document.createElement('span');
    msg.textContent = ` ${d.severity}${d.code ? `[${d.code}]` : ''}: ${d.message}`;
    li.append(line, msg);
    ul.append(li);
  }
  byId('diag-count').textContent =
    list.length === 0 ? 'no problems' : `${list.length} problem${list.length === 1 ? '' : 's'}`;
}

async function check(full = false) {
  const mine = ++checking;
  const source = text();
  let out;
  try {
    out = await engine.request(full ? 'checkFull' : 'check', { text: source });
  } catch (e) {
    if (!(e instanceof PanicError)) byId('diag-count').textContent = String(e);
    return;
  }
  // An answer about an older text than the editor's is dropped.
  if (mine !== checking || source !== text()) return;
  renderDiagnostics(out.diagnostics);
  showDiagnostics(view, out.diagnostics);
  showTokens(view, out.tokens);
  $('sheet').textContent = out.sheet ?? '(the rules sheet appears when the ruleset has no errors)';
  byId('checked-in').textContent = `${full ? 'scenarios and dry run' : 'checked'} in ${out.ms.toFixed(1)} ms`;
  document.body.setAttribute('data-checked', String(mine));
  if (full) document.body.setAttribute('data-full-checked', String(mine));
  else {
    clearTimeout(fullTimer);
    fullTimer = setTimeout(() => check(true), FULL_CHECK_DELAY_MS);
  }
  byId('new-game').disabled = out.sheet === null;
}

function scheduleCheck(delay = CHECK_DELAY_MS) {
  clearTimeout(checkTimer);
  clearTimeout(fullTimer);
  checkTimer = setTimeout(() => check(false), delay);
}

async function updateShare() {
  const source = text();
  const fragment = await encode(source);
  if (source !== text()) return;
  const link = $('share');
  link.href = `${location.origin}${location.pathname}#${fragment}`;
  link.setAttribute('data-ready', 'true');
}

function changed(source) {
  try {
    localStorage.setItem(STORE, source);
  } catch {
    // Storage full or refused: the text stays in the page.
  }
  $('share').removeAttribute('data-ready');
  scheduleCheck();
  clearTimeout(shareTimer);
  shareTimer = setTimeout(updateShare, CHECK_DELAY_MS);
}

// ---- the table ----

function clearTable(message) {
  byId('table-text').textContent = message;
  byId('table-moves').replaceChildren();
  byId('table-total').textContent = '';
  byId('table-scores').textContent = '';
}

function renderTable(v) {
  if (v.error) {
    clearTable(v.error);
    return;
  }
  const log = byId('table-text');
  log.textContent += v.text;
  log.scrollTop = log.scrollHeight;
  byId('table-total').textContent = `total ${v.total}`;
  byId('table-scores').textContent = v.scores;
  const moves = byId('table-moves');
  moves.replaceChildren();
  for (const m of v.moves) {
    const b = document.createElement('button');
    b.setAttribute('data-test', 'play-move');
    b.setAttribute('data-move', m.send);
    b.textContent = m.label;
    b.onclick = () => play(m.send);
    moves.append(b);
  }
  $('table').setAttribute('data-over', String(v.over));
  if (v.over) {
    const over = document.createElement('span');
    over.className = 'game-over';
    over.textContent = 'Game over.';
    moves.append(over);
  }
}

async function newGame() {
  byId('table-text').textContent = '';
  try {
    renderTable(
      await engine.request('newGame', {
        players: Number(byId('players').value),
        bot: byId('bot').value,
        seed: Math.floor(Math.random() * 1e9),
      }),
    );
  } catch (e) {
    if (!(e instanceof PanicError)) clearTable(String(e));
  }
}

async function play(send) {
  for (const b of byId('table-moves').querySelectorAll('button')) b.disabled = true;
  try {
    renderTable(await engine.request('play', { send }));
  } catch (e) {
    if (!(e instanceof PanicError)) clearTable(String(e));
  }
}

// ---- the simulation ----

// `sim` (the bots round the table) or `judge` (the first bot in every seat, `ninety judge`).
async function simulate(op = 'simulate') {
  const games = Number($('sim-games').value);
  const status = byId('sim-status');
  $('sim-run').disabled = true;
  $('judge-run').disabled = true;
  status.textContent = `playing ${games} games in a worker…`;
  try {
    const bots = byId('sim-bots').value;
    const run = await sim().request(op, {
      text: text(),
      games,
      players: Number(byId('players').value),
      bots,
      bot: bots.split(',')[0].trim() || 'cautious',
      seed: 1,
    });
    if (run.error) {
      status.textContent = run.error;
      return;
    }
    status.textContent = `${run.games} games in ${(run.ms / 1000).toFixed(1)} s`;
    const report = $('report');
    const pre = document.createElement('pre');
    pre.textContent = run.text;
    const frame = document.createElement('iframe');
    // The page is self-contained and runs nothing; sandboxed all the same.
    frame.setAttribute('sandbox', '');
    frame.title = op === 'judge' ? 'the judge\'s report' : 'the simulation report';
    frame.srcdoc = run.html;
    report.replaceChildren(frame, pre);
    report.setAttribute('data-games', String(run.games));
    report.setAttribute('data-kind', op);
  } catch (e) {
    if (!(e instanceof PanicError)) status.textContent = String(e);
  } finally {
    $('sim-run').disabled = false;
    $('judge-run').disabled = false;
  }
}

// ---- start ----

async function start() {
  const examples = await engine.request('examples');
  const select = $('examples');
  for (const { name } of examples) {
    const o = document.createElement('option');
    o.value = name;
    o.textContent = name;
    select.append(o);
  }
  const shared = await decode(location.hash);
  const stored = localStorage.getItem(STORE);
  const standard = examples.find((e) => e.name === 'ninety-nine') ?? examples[0];
  const initial = shared ?? stored ?? standard.text;
  view = createEditor(byId('editor-host'), initial, (op, args) => engine.request(op, args), changed);
  select.onchange = () => {
    const e = examples.find((x) => x.name === select.value);
    if (e) setText(view, e.text);
  };
  byId('new-game').onclick = newGame;
  $('sim-run').onclick = () => simulate('simulate');
  $('judge-run').onclick = () => simulate('judge');
  byId('panic-close').onclick = () => {
    byId('panic').hidden = true;
  };
  if (shared !== null) {
    // The shared text is now this page's work: kept in storage, and the link's fragment
    // dropped from the address, so a reload shows the edits made since, not the link again.
    localStorage.setItem(STORE, shared);
    history.replaceState(null, '', location.pathname + location.search);
  }
  scheduleCheck(0);
  updateShare();
  // The tests' hooks (web/test/browser.mjs): a forced panic, and each shipped ruleset's check timed.
  window.ninetyTest = {
    panic: () => engine.request('panic').catch((e) => String(e)),
    timeChecks: (times) => engine.request('timeChecks', { times }),
    ask: (op, args) => engine.request(op, args),
    text,
  };
  document.body.setAttribute('data-ready', 'true');
}

start().catch((e) => showPanic(String(e)));
