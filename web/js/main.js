// The playground's page: the editor, its diagnostics and rules sheet, the options, the
// examples and variants, the work kept in the browser, the table against bots, the runs
// (simulate, compare, judge) and the share link. Everything ninety does happens in the
// workers (workers.js); this thread only draws, so it stays responsive.
import { createEditor, openText, setText, showTokens, showDiagnostics } from './editor.js';
import { Worker2, PanicError, StoppedError } from './workers.js';
import { encode, decode } from './share.js';
import { OptionPanel } from './options.js';
import * as store from './store.js';

// A check as you type (the checker's every diagnostic, as an editor's language server checks
// each change), then, once typing pauses, the full check (the scenarios run and the games of
// `ninety check`'s dry run played, as on saving a file).
const CHECK_DELAY_MS = 150;
const FULL_CHECK_DELAY_MS = 600;
// A stopped simulation ends at its next slice; one that has not within this time is ended.
const STOP_GRACE_MS = 3000;
const $ = (name) => document.querySelector(`[data-test="${name}"]`);
const byId = (id) => document.getElementById(id);

function showPanic(message) {
  const box = byId('panic');
  box.hidden = false;
  byId('panic-text').textContent = `ninety crashed (a bug: please report it), and was started again: ${message}`;
}

// A message above the editor: what happened to the user's text, with buttons to act on it.
function notice(text, actions = []) {
  byId('notice').hidden = false;
  byId('notice-text').textContent = text;
  const box = byId('notice-actions');
  box.replaceChildren();
  for (const [label, act] of actions) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.onclick = () => {
      byId('notice').hidden = true;
      act();
    };
    box.append(b);
  }
}

const engine = new Worker2('engine', (message) => {
  showPanic(message);
  // The new worker knows nothing yet: give it the text again (the game is gone with the old).
  scheduleCheck(0);
  clearTable('the engine was started again: start a new game');
});
// The full check (scenarios, dry run) has a worker of its own: however long it takes, the
// checks as you type, hover and completion never wait for it, and a full check of a text
// already changed is ended.
let fullWorker = null;
function full() {
  fullWorker ??= new Worker2('full', (message) => showPanic(message));
  return fullWorker;
}
// The simulation's worker starts on the first run: loading the page compiles the module once.
let simWorker = null;
function sim() {
  simWorker ??= new Worker2('sim', (message) => {
    showPanic(message);
    endRun('the simulation crashed and was started again');
  });
  return simWorker;
}

let view = null;
let examples = [];
let checkTimer = null;
let fullTimer = null;
let checking = 0;
let shareTimer = null;
let listTimer = null;
// The piece of work this tab edits (store.js).
let work = null;
// The last check that compiled: its sheet stays, greyed, while the text has errors.
let good = null;
const options = new OptionPanel($('options'));

function text() {
  return view.state.doc.toString();
}

// ---- names ----

// The title a shipped ruleset gives itself (`Ninety-Nine`).
function titleOfExample(e) {
  return e.title;
}

// The file the text is downloaded as, and that the reports' commands name: its name in
// lower case, never a shipped ruleset's name unless it is that ruleset unchanged.
function fileName() {
  const source = text();
  const base = (good?.name ?? store.titleOf(source))
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'my-ruleset';
  const shipped = examples.find((e) => e.name === base);
  const slug = shipped && shipped.text !== source ? `${base}-mine` : base;
  return `${slug}.rules`;
}

// Whether the text is nothing of the user's own: empty, a shipped ruleset or a new variant as
// the page wrote them (the façade writes a variant's start: web/src/lib.rs, where a test
// checks each one clean). Such a text may be replaced without a copy.
function untouched(source) {
  return source.trim() === '' || examples.some((e) => e.text === source || e.variant === source);
}

// ---- the check ----

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

// Codes of a rule said twice: in a copy of a shipped game, the sign that a variant (which
// states only what changes) was meant.
const TWICE = new Set(['card-conflict', 'card-twice', 'said-twice', 'option-twice', 'bar-twice', 'when-twice']);

function renderVariantHint(source, list) {
  const box = byId('variant-hint');
  const twice = list.some((d) => d.severity === 'error' && TWICE.has(d.code));
  if (!twice || /^\s*extends\s/m.test(source)) {
    box.hidden = true;
    return;
  }
  const title = store.titleOf(source);
  // The shipped game the text is a copy of: the same name, else the longest name it starts with.
  const like = examples.find((e) => titleOfExample(e) === title)
    ?? examples.filter((e) => title.startsWith(titleOfExample(e))).sort((a, b) => b.title.length - a.title.length)[0];
  box.hidden = false;
  box.replaceChildren();
  const p = document.createElement('span');
  p.textContent = 'Changing a rule of a shipped game? A rule said twice is a conflict here. '
    + 'Start a new variant instead: it extends the game (extends "…") and states only what changes, '
    + 'and its lines replace the game\'s own. ';
  box.append(p);
  if (like) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = `New variant of ${titleOfExample(like)}`;
    b.setAttribute('data-test', 'variant-hint-start');
    b.onclick = () => newVariant(like.name);
    box.append(b);
  }
}

function renderSheet(out) {
  const sheet = $('sheet');
  const note = byId('sheet-note');
  if (out.sheet !== null) {
    sheet.textContent = out.sheet;
    sheet.setAttribute('data-stale', 'false');
    note.textContent = '';
  } else if (good !== null) {
    sheet.textContent = good.sheet;
    sheet.setAttribute('data-stale', 'true');
    note.textContent = '(of the last version without errors: mend them to see this one)';
  } else {
    sheet.textContent = '(the rules sheet appears when the ruleset has no errors)';
    sheet.setAttribute('data-stale', 'true');
    note.textContent = '';
  }
}

// The ruleset to compare with: the one the text extends, until another is picked.
function renderAgainst(out) {
  const select = $('sim-against');
  if (select.getAttribute('data-picked') === 'true') return;
  const parent = out.parent ?? good?.parent ?? null;
  const want = parent ?? 'ninety-nine';
  if (select.value !== want && [...select.options].some((o) => o.value === want)) select.value = want;
}

async function check(whole = false) {
  const mine = ++checking;
  const source = text();
  let out;
  try {
    if (whole) {
      const w = full();
      if (w.busy()) w.end('a newer text is checked');
      byId('checked-in').textContent = 'running the scenarios and the dry run…';
      out = await w.request('checkFull', { text: source });
    } else {
      out = await engine.request('check', { text: source });
    }
  } catch (e) {
    if (!(e instanceof PanicError) && !(e instanceof StoppedError)) byId('diag-count').textContent = String(e);
    return;
  }
  // An answer about an older text than the editor's is dropped.
  if (mine !== checking || source !== text()) return;
  if (out.sheet !== null) good = out;
  renderDiagnostics(out.diagnostics);
  renderVariantHint(source, out.diagnostics);
  showDiagnostics(view, out.diagnostics);
  showTokens(view, out.tokens);
  renderSheet(out);
  renderAgainst(out);
  options.show(out.sheet !== null ? out.options : null);
  byId('checked-in').textContent = `${whole ? 'scenarios and dry run' : 'checked'} in ${out.ms.toFixed(1)} ms`;
  document.body.setAttribute('data-checked', String(mine));
  if (whole) document.body.setAttribute('data-full-checked', String(mine));
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

// ---- the work kept ----

function changed(source) {
  if (!store.write(work, source)) {
    byId('checked-in').textContent = 'the browser refused to keep the text: download it to keep it';
  }
  $('share').removeAttribute('data-ready');
  byId('share-said').textContent = '';
  scheduleCheck();
  clearTimeout(shareTimer);
  shareTimer = setTimeout(updateShare, CHECK_DELAY_MS);
  clearTimeout(listTimer);
  listTimer = setTimeout(renderWork, 1000);
}

// Shows a piece of work in the editor, as this tab's.
function show(id, source) {
  work = id;
  good = null;
  openText(view, source);
  changed(source);
  scheduleCheck(0);
  renderWork();
}

// Opens `source` as a new piece of work; the text that was there stays in its own.
async function newWork(source) {
  const id = store.newId();
  store.write(id, source);
  await store.claim(id);
  show(id, source);
}

// Replaces the text with a shipped one: in place when the text is nothing of the user's,
// else as new work, the user's text kept.
async function replaceWith(source, what) {
  const before = text();
  if (untouched(before)) {
    setText(view, source);
    return;
  }
  const was = work;
  await newWork(source);
  notice(`${what} opened as new work. Your text is kept: “${store.titleOf(before)}” under “your work”.`, [
    ['back to my text', () => switchTo(was)],
  ]);
}

async function newVariant(name) {
  const e = examples.find((x) => x.name === name);
  if (!e) return;
  await replaceWith(e.variant, `A new variant of ${titleOfExample(e)}`);
  view.focus();
  view.dispatch({ selection: { anchor: view.state.doc.length } });
}

async function switchTo(id) {
  if (id === work) return;
  const source = store.read(id);
  if (source === null) {
    notice('That work is no longer in this browser\'s storage.');
    renderWork();
    return;
  }
  if (await store.claim(id)) {
    show(id, source);
    return;
  }
  // Open in another tab: two tabs never write the same piece.
  await newWork(source);
  notice(`“${store.titleOf(source)}” is open in another tab: this tab works on a copy of it (both are kept).`);
}

function renderWork() {
  const select = $('work');
  const list = store.list();
  if (!list.some((w) => w.id === work)) list.unshift({ id: work, title: store.titleOf(text()), at: Date.now() });
  select.replaceChildren();
  for (const w of list) {
    const o = document.createElement('option');
    o.value = w.id;
    const when = w.at ? new Date(w.at).toLocaleString() : 'earlier';
    o.textContent = w.id === work ? `${w.title} (this tab)` : `${w.title} (${when})`;
    select.append(o);
  }
  select.value = work;
}

// Which piece this tab opens: a share link's text as new work (a broken link said so); else
// the piece it had before a reload; else the one changed last, or a copy of it when another
// tab has it open; else the standard game.
async function opening(standard) {
  const link = await decode(location.hash);
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  const others = store.list();
  if (link?.text !== undefined) {
    const id = store.newId();
    store.write(id, link.text);
    await store.claim(id);
    const kept = others.length > 0
      ? ` Your own work is kept: pick it under “your work” (“${others[0].title}” was the last).`
      : '';
    return { id, source: link.text, said: `Opened the shared ruleset as new work.${kept}` };
  }
  const broken = link?.broken
    ? `This share link is broken: ${link.broken}, so the ruleset it held cannot be read. `
    : '';
  const again = store.tabId();
  if (again && store.read(again) !== null && (await store.claim(again, 1000))) {
    return { id: again, source: store.read(again), said: broken && `${broken}Your own work is shown instead.` };
  }
  const last = store.lastId() ?? 'main';
  const kept = store.read(last);
  if (kept !== null) {
    if (await store.claim(last)) {
      return { id: last, source: kept, said: broken && `${broken}Your own work is shown instead.` };
    }
    const id = store.newId();
    store.write(id, kept);
    await store.claim(id);
    return {
      id,
      source: kept,
      said: `${broken}“${store.titleOf(kept)}” is open in another tab: this tab works on a copy of it (both are kept under “your work”).`,
    };
  }
  const id = (await store.claim('main')) ? 'main' : store.newId();
  if (id !== 'main') await store.claim(id);
  return { id, source: standard, said: broken && `${broken}The standard game is shown instead.` };
}

// ---- share and download ----

async function updateShare() {
  const source = text();
  const fragment = await encode(source);
  if (source !== text()) return;
  const link = $('share');
  link.href = `${location.origin}${location.pathname}#${fragment}`;
  link.setAttribute('data-ready', 'true');
}

async function copyLink(event) {
  event.preventDefault();
  const said = byId('share-said');
  if ($('share').getAttribute('data-ready') !== 'true') await updateShare();
  const href = $('share').href;
  let copied = false;
  try {
    await navigator.clipboard.writeText(href);
    copied = true;
  } catch {
    // No clipboard (a page not served from a secure origin, or refused): the old way.
    const area = document.createElement('textarea');
    area.value = href;
    document.body.append(area);
    area.select();
    try {
      copied = document.execCommand('copy');
    } catch {
      copied = false;
    }
    area.remove();
  }
  said.replaceChildren();
  if (copied) {
    said.textContent = `Link copied (${href.length} characters): whoever opens it gets a copy of this text.`;
    said.setAttribute('data-copied', 'true');
  } else {
    said.textContent = 'Copy this link: ';
    const field = document.createElement('input');
    field.readOnly = true;
    field.value = href;
    said.append(field);
    field.select();
    said.setAttribute('data-copied', 'false');
  }
}

function download() {
  const blob = new Blob([text()], { type: 'text/plain;charset=utf-8' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = fileName();
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

// ---- the table ----

function clearTable(message) {
  byId('table-text').textContent = message;
  byId('table-moves').replaceChildren();
  byId('table-total').textContent = '';
  byId('table-scores').textContent = '';
  byId('table-said').textContent = '';
}

function renderTable(v) {
  if (v.error) {
    clearTable(v.error);
    return;
  }
  const said = byId('table-said');
  if (v.refused) {
    said.textContent = v.text;
    return;
  }
  said.textContent = '';
  const log = byId('table-text');
  log.textContent += v.text;
  log.scrollTop = log.scrollHeight;
  byId('table-total').textContent = `total ${v.total}`;
  byId('table-scores').textContent = v.scores;
  const moves = byId('table-moves');
  moves.replaceChildren();
  for (const m of v.moves) {
    const b = document.createElement('button');
    b.type = 'button';
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
    over.setAttribute('data-test', 'game-over');
    over.textContent = `Game over: ${v.outcome}.`;
    const again = document.createElement('button');
    again.type = 'button';
    again.textContent = 'New game';
    again.onclick = newGame;
    moves.append(over, ' ', again);
  }
}

async function newGame() {
  const { sets, error } = options.sets();
  if (error) {
    clearTable(error);
    return;
  }
  const typed = byId('seed').value.trim();
  const seed = /^\d+$/.test(typed) ? Number(typed) : Math.floor(Math.random() * 1e9);
  byId('table-text').textContent = '';
  try {
    renderTable(
      await engine.request('newGame', {
        players: Number(byId('players').value),
        bot: byId('bot').value,
        seed,
        sets,
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

// ---- the runs: simulate, compare, judge ----

let running = null;

function runButtons(disabled) {
  for (const b of ['sim-run', 'compare-run', 'judge-run']) $(b).disabled = disabled;
}

function endRun(status) {
  if (running) {
    clearInterval(running.clock);
    clearTimeout(running.grace);
  }
  running = null;
  runButtons(false);
  $('sim-progress').hidden = true;
  $('sim-stop').hidden = true;
  if (status !== undefined) byId('sim-status').textContent = status;
}

function showReport(kind, out, file) {
  const report = $('report');
  const pre = document.createElement('pre');
  pre.textContent = out.text;
  const frame = document.createElement('iframe');
  // The page is self-contained and runs nothing; sandboxed all the same.
  frame.setAttribute('sandbox', '');
  frame.title = { judge: 'the judge\'s report', compare: 'the comparison', simulate: 'the simulation report' }[kind];
  frame.srcdoc = out.html;
  report.replaceChildren(frame, pre);
  report.setAttribute('data-games', String(out.games));
  report.setAttribute('data-kind', kind);
  const where = byId('report-file');
  where.hidden = false;
  where.replaceChildren();
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = `download ${file}`;
  b.onclick = download;
  if (out.command) {
    // The judge's report gives no command: here is one, naming the file.
    const code = document.createElement('code');
    code.textContent = out.command;
    where.append('In a terminal, the same run is ', code, ': ', b, ' and run it in the folder it is saved to.');
  } else {
    where.append(`The report's command runs the same games in a terminal; it names the text as ${file}: `, b,
      ' and run the command in the folder it is saved to.');
  }
}

// `simulate` (the bots round the table), `compare` (the same, and the ruleset picked, on the
// same deals: `ninety sim A B`) or `judge` (one bot in every seat: `ninety judge`).
async function run(kind) {
  const status = byId('sim-status');
  const games = Number($('sim-games').value);
  if (!Number.isInteger(games) || games < 1 || games > 1_000_000) {
    status.textContent = 'a run plays from 1 to 1000000 games';
    return;
  }
  const { sets, error } = options.sets();
  if (error) {
    status.textContent = error;
    return;
  }
  const seedText = byId('sim-seed').value.trim();
  const seed = /^\d+$/.test(seedText) ? Number(seedText) : 1;
  const file = fileName();
  const against = kind === 'compare' ? $('sim-against').value : '';
  runButtons(true);
  const bar = $('sim-progress');
  bar.hidden = false;
  $('sim-stop').hidden = false;
  const t0 = performance.now();
  running = { kind, clock: null, grace: null };
  const what = { simulate: `playing ${games} games`, compare: `playing ${games} games of each on the same deals`, judge: `judging ${games} games` }[kind];
  if (kind === 'judge') {
    // A judge reports only once every game is played: no slices, so no count to show.
    bar.removeAttribute('value');
    const tick = () => {
      status.textContent = `${what} in a worker… ${((performance.now() - t0) / 1000).toFixed(0)} s (Stop ends it with no report)`;
    };
    tick();
    running.clock = setInterval(tick, 500);
  } else {
    bar.max = games;
    bar.value = 0;
    status.textContent = `${what} in a worker…`;
  }
  const onProgress = (p) => {
    bar.max = p.games;
    bar.value = p.played;
    const secs = (performance.now() - t0) / 1000;
    const left = p.played > 0 ? (secs * (p.games - p.played)) / p.played : null;
    status.textContent = `${what}: ${p.played} of ${p.games}${left === null ? '' : `, about ${left.toFixed(0)} s left`}`;
  };
  try {
    const bots = byId('sim-bots').value;
    const out = await sim().request(
      kind === 'judge' ? 'judge' : 'simulate',
      {
        text: text(),
        games,
        players: Number(byId('sim-players').value),
        bots,
        bot: byId('judge-bot').value,
        by: kind === 'judge' ? byId('judge-by').value : '',
        seed,
        sets,
        file,
        against,
      },
      onProgress,
    );
    if (out.error) {
      endRun(out.error);
      return;
    }
    showReport(kind, out, file);
    const secs = (out.ms / 1000).toFixed(1);
    endRun(out.stopped
      ? `stopped: the report covers the ${out.games} games played of the ${out.asked} asked (${secs} s)`
      : `${out.games} games${kind === 'compare' ? ' of each' : ''} in ${secs} s`);
  } catch (e) {
    if (e instanceof StoppedError) endRun(e.message);
    else if (!(e instanceof PanicError)) endRun(String(e));
  }
}

function stop() {
  if (!running) return;
  $('sim-stop').hidden = true;
  if (running.kind === 'judge') {
    sim().end('stopped: the judge was ended (a judge reports only once every game is played)');
    return;
  }
  byId('sim-status').textContent = 'stopping…';
  sim().tell('stop');
  running.grace = setTimeout(() => {
    sim().end('stopped: the run was ended at once (its last slice was too long to wait for), with no report');
  }, STOP_GRACE_MS);
}

// ---- start ----

function fill(select, names) {
  for (const [value, label] of names) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = label;
    select.append(o);
  }
}

async function start() {
  examples = await engine.request('examples');
  const titled = examples.map((e) => [e.name, `${titleOfExample(e)} (${e.name})`]);
  fill($('examples'), titled);
  fill($('new-variant'), titled);
  fill($('sim-against'), titled);
  const standard = examples.find((e) => e.name === 'ninety-nine') ?? examples[0];
  const opened = await opening(standard.text);
  work = opened.id;
  view = createEditor(byId('editor-host'), opened.source, (op, args) => engine.request(op, args), changed);
  if (opened.said) notice(opened.said);
  renderWork();
  $('examples').onchange = async (event) => {
    const e = examples.find((x) => x.name === event.target.value);
    event.target.value = '';
    if (e) await replaceWith(e.text, `${titleOfExample(e)} (an example)`);
  };
  $('new-variant').onchange = async (event) => {
    const name = event.target.value;
    event.target.value = '';
    await newVariant(name);
  };
  $('work').onchange = (event) => switchTo(event.target.value);
  $('sim-against').onchange = () => $('sim-against').setAttribute('data-picked', 'true');
  $('share').onclick = copyLink;
  $('download').onclick = download;
  byId('new-game').onclick = newGame;
  $('sim-run').onclick = () => run('simulate');
  $('compare-run').onclick = () => run('compare');
  $('judge-run').onclick = () => run('judge');
  $('sim-stop').onclick = stop;
  byId('panic-close').onclick = () => {
    byId('panic').hidden = true;
  };
  byId('notice-close').onclick = () => {
    byId('notice').hidden = true;
  };
  // Another tab changed the list of work.
  window.addEventListener('storage', () => {
    clearTimeout(listTimer);
    listTimer = setTimeout(renderWork, 300);
  });
  scheduleCheck(0);
  updateShare();
  // The tests' hooks (web/test/browser.mjs): a forced panic, each shipped ruleset's check
  // timed, the workers' requests, the text, and the cursor put at the end of a line.
  window.ninetyTest = {
    panic: () => engine.request('panic').catch((e) => String(e)),
    timeChecks: (times) => engine.request('timeChecks', { times }),
    ask: (op, args) => engine.request(op, args),
    text,
    work: () => work,
    fileName,
    endOfLine: (n) => {
      view.focus();
      view.dispatch({ selection: { anchor: view.state.doc.line(n).to }, scrollIntoView: true });
    },
  };
  document.body.setAttribute('data-ready', 'true');
}

start().catch((e) => showPanic(String(e)));
