// `ninety serve` end to end, in Debian's Chromium driven by playwright-core: the server the
// binary runs (`NINETY_BIN=target/release/ninety node web/test/serve.mjs [NAME...]`), its page
// in several browsers at once (each a context of its own: its own storage, as another person's
// browser). Prints `ok NAME` or `FAILED NAME: why` for each test, then `N passed, N failed`;
// exits non-zero when one failed. The screenshots go to a temporary folder, printed.
// NINETY_PAGE=src/app/serve/page serves the page's three files from that folder instead of the
// copies built into the binary: an edit to the page is tried without a build.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..', '..');
const CHROMIUM = process.env.NINETY_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const PAGE_DIR = process.env.NINETY_PAGE ? path.resolve(process.env.NINETY_PAGE) : null;
const PAGE_FILES = { '/table.js': ['table.js', 'text/javascript; charset=utf-8'], '/table.css': ['table.css', 'text/css; charset=utf-8'] };
// Generous: the machine is slow and shared. Nothing is asserted about speed.
const WAIT = 120_000;
const SEED = process.env.NINETY_SERVE_SEED ?? '1';
const START = 60_000;

function assert(cond, why) {
  if (!cond) throw new Error(why);
}

const $ = (name) => `[data-test="${name}"]`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// --- The server ---------------------------------------------------------------------------

class Server {
  constructor(bin, db) {
    this.bin = bin;
    this.db = db;
    this.child = null;
    this.port = 0;
    this.output = '';
  }

  // Starts the server (on `this.port`: 0 the first time, the same port after) and resolves
  // once it prints its address.
  start() {
    // A seeded server: the same deals on every run, so the game the test plays is the same
    // game every time (and one where both people move more than once).
    const args = ['serve', '--port', String(this.port), '--db', this.db, '--away', '3600', '--seed', SEED];
    const child = spawn(this.bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    return new Promise((resolve, reject) => {
      let out = '';
      let settled = false;
      const done = (err, url) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(url);
      };
      const timer = setTimeout(() => done(new Error(`the server printed no http://127.0.0.1:PORT within ${START / 1000} s; it said: ${this.tail()}`)), START);
      child.stdout.setEncoding('utf8');
      child.stderr.setEncoding('utf8');
      child.stdout.on('data', (d) => {
        out += d;
        this.output += d;
        const m = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (m) {
          this.port = Number(m[1]);
          done(null, `http://127.0.0.1:${this.port}`);
        }
      });
      child.stderr.on('data', (d) => {
        this.output += d;
      });
      child.on('error', (e) => done(new Error(`the server did not start: ${e.message}`)));
      child.on('exit', (code, signal) => {
        this.output += `\n[the server exited: ${signal ?? code}]\n`;
        done(new Error(`the server exited (${signal ?? code}) before it listened; it said: ${this.tail()}`));
      });
    });
  }

  alive() {
    return this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  // SIGKILL, and wait for it to be gone.
  async kill() {
    const child = this.child;
    if (!child || !this.alive()) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
  }

  tail() {
    return this.output.slice(-2000).trim() || '(nothing)';
  }
}

// --- Pages --------------------------------------------------------------------------------

// A page of its own browser context (another person's browser), its errors and the server's
// messages to it kept.
async function person(browser, url, viewport) {
  const ctx = await browser.newContext(viewport ? { viewport } : {});
  if (PAGE_DIR) {
    await ctx.route('**/*', (route) => {
      const at = new URL(route.request().url()).pathname;
      const [file, type] = PAGE_FILES[at] ?? (at === '/' || /^\/t\/\d+$/.test(at) ? ['index.html', 'text/html; charset=utf-8'] : []);
      if (!file) return route.continue();
      return route.fulfill({ status: 200, contentType: type, body: fs.readFileSync(path.join(PAGE_DIR, file)) });
    });
  }
  const page = await ctx.newPage();
  page.setDefaultTimeout(WAIT);
  page.errors = [];
  page.received = [];
  page.sent = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => {
      try {
        page.sent.push(JSON.parse(f.payload));
      } catch {
        page.sent.push({ type: '(not JSON)' });
      }
    });
    ws.on('framereceived', (f) => {
      try {
        page.received.push(JSON.parse(f.payload));
      } catch {
        page.received.push({ type: '(not JSON)', payload: String(f.payload).slice(0, 200) });
      }
    });
  });
  if (url) await page.goto(url);
  return page;
}

async function data(page, name) {
  return page.getAttribute('body', `data-${name}`);
}

async function handOf(page) {
  return page.$$eval($('hand-card'), (cs) => cs.map((c) => c.getAttribute('data-card')));
}

async function totalOf(page) {
  return (await page.textContent($('total'))).trim();
}

// Polls `probe` (async, a value when done) until it gives one.
async function until(probe, what, timeout = WAIT) {
  const t0 = Date.now();
  let last;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== null && v !== false) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() - t0 > timeout) throw new Error(`waited ${timeout / 1000} s for ${what}${last ? ` (${last.message})` : ''}`);
    await sleep(100);
  }
}

// A page's hand once it holds still: the same twice, half a second apart, with no table
// message between.
async function settledHand(page) {
  let prev = null;
  for (let i = 0; i < 40; i++) {
    const n = await data(page, 'tables');
    const h = { hand: await handOf(page), total: await totalOf(page) };
    const key = `${n}|${h.total}|${h.hand.join(' ')}`;
    if (key === prev) return h;
    prev = key;
    await sleep(500);
  }
  throw new Error('the hand never held still');
}

// Neither page shows a card of the other's hand, read at the same moment (no table message
// came to either while reading).
async function handsApart(a, b) {
  for (let i = 0; i < 20; i++) {
    const before = [await data(a, 'tables'), await data(b, 'tables')];
    const [ha, hb] = [await handOf(a), await handOf(b)];
    const after = [await data(a, 'tables'), await data(b, 'tables')];
    if (before[0] !== after[0] || before[1] !== after[1]) continue;
    const both = ha.filter((c) => hb.includes(c));
    assert(both.length === 0, `both pages show ${both.join(', ')} (A: ${ha.join(' ')}; B: ${hb.join(' ')})`);
    return;
  }
}

// Clicks the first playable card (and, for a card of several moves, its first choice), else
// the first move button. The move's text.
async function playFirst(page) {
  for (let attempt = 0; ; attempt++) {
    try {
      const card = await page.$(`${$('hand-card')}[data-send]:not([disabled])`);
      if (card) {
        const several = await card.getAttribute('data-choices');
        let send = await card.getAttribute('data-send');
        await card.click({ timeout: 10_000 });
        if (several) {
          const choice = await page.waitForSelector(`${$('move')}[data-choice]:not([disabled])`, { timeout: 10_000 });
          send = await choice.getAttribute('data-send');
          await choice.click({ timeout: 10_000 });
        }
        return send;
      }
      const button = await page.$(`${$('move')}:not([disabled])`);
      assert(button, 'the page says it is my turn, but offers nothing to click');
      const send = await button.getAttribute('data-send');
      await button.click({ timeout: 10_000 });
      return send;
    } catch (e) {
      // The page was drawn again under the click: once more.
      if (attempt >= 3) throw e;
      await sleep(300);
    }
  }
}

async function pickGame(page, { ruleset, players, seats, sets }) {
  await page.waitForSelector('body[data-ready="true"]');
  await page.selectOption($('ruleset'), ruleset);
  await page.selectOption($('players'), String(players));
  for (const [i, kind] of seats.entries()) await page.selectOption($(`seat-kind-${i + 1}`), kind);
  if (sets !== undefined) await page.fill($('sets'), sets);
}

// What docs/serve.md says a `table` message holds.
const TABLE_FIELDS = [
  'table', 'ruleset', 'seat', 'started', 'seats', 'hand', 'hand_sizes', 'known', 'discard', 'stock',
  'total', 'turn', 'clockwise', 'chips', 'bank', 'pot', 'round', 'counts', 'out', 'over', 'winners',
  'outcome', 'events', 'waiting_on', 'moves', 'notice',
];
const SEAT_FIELDS = ['name', 'bot', 'taken', 'here', 'stand_in'];

function checkTableMessage(t, who) {
  const missing = TABLE_FIELDS.filter((f) => !(f in t));
  assert(missing.length === 0, `${who}: a table message without ${missing.join(', ')}: ${JSON.stringify(t).slice(0, 600)}`);
  for (const s of t.seats) {
    const lacks = SEAT_FIELDS.filter((f) => !(f in s));
    assert(lacks.length === 0, `${who}: a seat without ${lacks.join(', ')}: ${JSON.stringify(s)}`);
  }
  for (const m of t.moves) {
    assert(m && typeof m === 'object' && 'send' in m && 'card' in m && 'label' in m, `${who}: a move is not {send, card, label}: ${JSON.stringify(m)}`);
  }
  assert(Array.isArray(t.events), `${who}: events is not a list: ${JSON.stringify(t.events).slice(0, 200)}`);
}

// --- Tests ---------------------------------------------------------------------------------

const shared = {};

const tests = {
  // Two people and a bot, each person in a browser of their own, play to the end: a reload, a
  // server killed and started again, and a spectator on the way; neither sees the other's hand.
  async two_people_and_a_bot_play_to_the_end(env) {
    const A = await person(env.browser, `${env.base}/`);
    env.pages.push(A);
    await pickGame(A, { ruleset: 'ninety-nine', players: 3, seats: ['person', 'cautious'], sets: 'chips=1' });
    await A.click($('open'));
    await A.waitForFunction(() => /^\/t\/\d+$/.test(location.pathname) && document.body.dataset.seat === '0');
    const invite = (await A.textContent($('invite'))).trim();
    assert(/^http:\/\/127\.0\.0\.1:\d+\/t\/\d+$/.test(invite), `the invite link: ${invite}`);
    const table = Number(invite.split('/').pop());
    shared.invite = invite;
    const token = await A.evaluate((n) => localStorage.getItem(`ninety-seat-${n}`), table);
    assert(token && token.length >= 8, `the seat's token is kept: ${token}`);
    await A.waitForSelector('body[data-ready="true"]');
    await A.waitForFunction(() => /Waiting for players: 1 of 2 seats taken/.test(document.querySelector('[data-test="status"]').textContent));
    const seated = A.received.find((m) => m.type === 'seated');
    assert(seated && seated.table === table && seated.seat === 0 && typeof seated.token === 'string', `seated: ${JSON.stringify(seated)}`);

    const B = await person(env.browser, invite);
    env.pages.push(B);
    await B.waitForFunction(() => document.body.dataset.seat === '1' && document.body.dataset.ready === 'true');
    await A.waitForFunction(() => !/Waiting for players/.test(document.querySelector('[data-test="status"]').textContent));
    assert(new URL(B.url()).pathname === `/t/${table}`, `B's address: ${B.url()}`);

    // (c) The seats are taken: a third browser watches, and sees no hand.
    const C = await person(env.browser, invite);
    env.pages.push(C);
    await C.waitForFunction(() => document.body.dataset.seat === 'watch' && document.body.dataset.ready === 'true');
    assert((await C.$$($('hand-card'))).length === 0, 'the spectator sees no hand card');
    const seen = C.received.filter((m) => m.type === 'table');
    assert(seen.every((m) => m.seat === null && (m.hand ?? []).length === 0 && (m.moves ?? []).length === 0), 'the spectator is told no hand and no move');
    assert(/Watching/.test(await C.textContent($('status'))), 'the spectator\'s status says Watching');
    await C.context().close();

    // A link with a token nobody holds: the page forgets it, finds no free seat, and watches.
    const D = await person(env.browser, `${invite}#not-a-token`);
    env.pages.push(D);
    await D.waitForFunction(() => document.body.dataset.seat === 'watch' && document.body.dataset.ready === 'true');
    const asked = D.sent.map((m) => m.type).join(' ');
    assert(asked === 'back join watch', `the page asked: ${asked}`);
    assert(D.sent[0].token === 'not-a-token' && D.sent[0].table === table, `back: ${JSON.stringify(D.sent[0])}`);
    assert(await D.evaluate(() => location.hash === '' && Object.keys(localStorage).length === 0), 'the hash is cleared and the unknown token forgotten');
    await D.context().close();

    for (const p of [A, B]) {
      const t = p.received.find((m) => m.type === 'table' && m.started === true);
      assert(t, 'a table message of the game begun came');
      checkTableMessage(t, p === A ? 'A' : 'B');
    }

    let movesA = 0;
    let movesB = 0;
    let reloaded = false;
    let restarted = false;
    const notes = [];

    // (a) A reload brings B back to its seat, with the same hand.
    const reloadB = async (when) => {
      const was = await settledHand(B);
      await B.reload();
      await B.waitForFunction(() => document.body.dataset.seat === '1' && document.body.dataset.ready === 'true');
      const now = await settledHand(B);
      assert(now.hand.slice().sort().join(' ') === was.hand.slice().sort().join(' '), `B's hand after a reload: ${now.hand} (was ${was.hand})`);
      assert(now.total === was.total, `the total after B's reload: ${now.total} (was ${was.total})`);
      const back = B.received.filter((m) => m.type === 'seated').pop();
      assert(back && back.seat === 1, `B sat down again: ${JSON.stringify(back)}`);
      reloaded = true;
      notes.push(`B reloaded ${when}, holding ${was.hand.join(' ') || 'nothing'}`);
    };

    // (b) The server killed and started again: the table goes on where it was.
    const restart = async (when) => {
      const was = await settledHand(A);
      const counts = [Number(await data(A, 'tables')), Number(await data(B, 'tables'))];
      await env.server.kill();
      await A.waitForFunction(() => document.body.dataset.conn === 'closed');
      await B.waitForFunction(() => document.body.dataset.conn === 'closed');
      assert(/Connection lost, reconnecting/.test(await A.textContent($('status'))), 'the page says the connection was lost');
      await env.server.start();
      for (const [p, n] of [[A, counts[0]], [B, counts[1]]]) {
        await p.waitForFunction((k) => document.body.dataset.conn === 'open' && Number(document.body.dataset.tables) > k, n);
      }
      const now = await settledHand(A);
      assert(now.total === was.total, `A's total after the restart: ${now.total} (was ${was.total})`);
      assert(now.hand.slice().sort().join(' ') === was.hand.slice().sort().join(' '), `A's hand after the restart: ${now.hand} (was ${was.hand})`);
      assert((await data(A, 'seat')) === '0' && (await data(B, 'seat')) === '1', 'both back in their seats');
      restarted = true;
      notes.push(`server restarted ${when} at total ${was.total}`);
    };

    // Whether `seat` is out of the game, as `page` shows it.
    const isOut = async (page, seat) => (await page.$(`[data-test="seat"][data-seat="${seat}"].out`)) !== null;

    for (let i = 0; i < 3000; i++) {
      const who = await until(async () => {
        if ((await data(A, 'over')) === 'true' && (await data(B, 'over')) === 'true') return 'over';
        if ((await data(A, 'your-turn')) === 'true') return 'A';
        if ((await data(B, 'your-turn')) === 'true') return 'B';
        return null;
      }, 'a turn on one of the pages, or the end');
      if (who === 'over') break;
      // Out of the game before their second (third) move: checked then.
      if (!reloaded && movesB >= 1 && (await isOut(B, 1))) {
        await reloadB('once out');
        continue;
      }
      if (!restarted && movesA >= 1 && (await isOut(A, 0))) {
        await restart('once A was out');
        continue;
      }
      await handsApart(A, B);
      const page = who === 'A' ? A : B;
      const before = Number(await data(page, 'tables'));
      await playFirst(page);
      await page.waitForFunction((n) => Number(document.body.dataset.tables) > n, before);
      if (who === 'A') movesA++;
      else movesB++;
      if (who === 'B' && movesB === 2 && !reloaded) await reloadB('after its 2nd move');
      if (who === 'A' && movesA === 3 && !restarted) await restart("after A's 3rd move");
    }
    assert((await data(A, 'over')) === 'true' && (await data(B, 'over')) === 'true', 'the game ended on both pages');
    assert(movesA > 0 && movesB > 0, `both played: A ${movesA} moves, B ${movesB}`);
    // A game too short for them: at its end.
    if (!reloaded) await reloadB('at the end');
    if (!restarted) await restart('at the end');

    // The end: the outcome on both pages, then the replay's last step is the table's end.
    const outcomes = [];
    for (const p of [A, B]) {
      await p.waitForSelector(`${$('outcome')}`, { state: 'visible' });
      const said = (await p.textContent($('outcome'))).trim();
      assert(said.length > 0, 'an outcome is said');
      outcomes.push(said);
    }
    const last = A.received.filter((m) => m.type === 'table').pop();
    assert(last.over === true && typeof last.outcome === 'string' && last.outcome.length > 0, `the last table message: over ${last.over}, outcome ${JSON.stringify(last.outcome)}`);
    const finalTotal = await totalOf(A);

    await A.screenshot({ path: path.join(env.shots, 'table-over-1280.png'), fullPage: true });
    env.shotPaths.push(path.join(env.shots, 'table-over-1280.png'));
    await A.click($('replay'));
    await A.waitForSelector(`${$('step')}`, { state: 'visible' });
    const first = (await A.textContent($('step'))).trim();
    const m = /^step 1 of (\d+)$/.exec(first);
    assert(m, `the replay starts at its first step: ${first}`);
    const n = Number(m[1]);
    assert(n > movesA + movesB, `a step for each move: ${n} steps, ${movesA + movesB} moves by people`);
    assert((await A.$$($('hand-card'))).length === 0, 'the replay is a spectator\'s: no hand');
    for (let k = 1; k < n; k++) {
      assert(!(await A.isDisabled($('next'))), `Next works at step ${k}`);
      await A.click($('next'));
    }
    const end = (await A.textContent($('step'))).trim();
    assert(end === `step ${n} of ${n}`, `the last step: ${end}`);
    assert(await A.isDisabled($('next')), 'no Next after the last step');
    const replayTotal = await totalOf(A);
    assert(replayTotal === finalTotal, `the last step's total ${replayTotal}, the game's ${finalTotal}`);
    await A.click($('prev'));
    assert((await A.textContent($('step'))).trim() === `step ${n - 1} of ${n}`, 'Previous steps back');
    await A.screenshot({ path: path.join(env.shots, 'replay-1280.png'), fullPage: true });
    env.shotPaths.push(path.join(env.shots, 'replay-1280.png'));
    await A.click($('back'));
    await A.waitForSelector($('replay-bar'), { state: 'hidden' }).catch(() => {});
    assert(await A.isHidden('#replay-bar'), 'back at the table');
    for (const p of [A, B]) assert(p.errors.length === 0, `errors on the page: ${p.errors.join('; ')}`);
    return `${movesA} + ${movesB} moves by people, ${n} steps; ${notes.join('; ')}; outcome: ${outcomes[0]}`;
  },

  // At a phone's width nothing scrolls sideways: the lobby, a table in play, a finished one.
  async a_phone_width_table(env) {
    const phone = { width: 375, height: 740 };
    const P = await person(env.browser, `${env.base}/`, phone);
    env.pages.push(P);
    await P.waitForSelector('body[data-ready="true"]');
    const width = () => P.evaluate(() => document.documentElement.scrollWidth);
    assert((await width()) <= 375, `the lobby is ${await width()} px wide`);
    await shot(env, P, 'lobby-375.png');
    await pickGame(P, { ruleset: 'ninety-nine', players: 5, seats: ['person', 'cautious', 'random', 'aggressive'] });
    await shot(env, P, 'lobby-filled-375.png');
    // A friend's seat stays free: the table waits.
    await P.click($('open'));
    await P.waitForFunction(() => document.body.dataset.seat === '0' && document.body.dataset.ready === 'true');
    assert((await width()) <= 375, `a table waiting for players is ${await width()} px wide`);
    await shot(env, P, 'table-waiting-375.png');
    // A table in play: every other seat a bot, a few moves made.
    await P.goto(`${env.base}/`);
    await pickGame(P, { ruleset: 'ninety-nine', players: 4, seats: ['cautious', 'random', 'aggressive'] });
    await P.click($('open'));
    await P.waitForFunction(() => document.body.dataset.seat === '0' && document.body.dataset.ready === 'true');
    for (let k = 0; k < 3; k++) {
      await P.waitForFunction(() => document.body.dataset.yourTurn === 'true' || document.body.dataset.over === 'true');
      if ((await data(P, 'over')) === 'true') break;
      const before = Number(await data(P, 'tables'));
      await playFirst(P);
      await P.waitForFunction((n) => Number(document.body.dataset.tables) > n, before);
    }
    assert((await width()) <= 375, `a table in play is ${await width()} px wide`);
    const small = await P.$$eval(`${$('hand-card')}[data-send], ${$('move')}, ${$('copy')}`, (bs) =>
      bs.map((b) => b.getBoundingClientRect()).filter((r) => r.width > 0 && (r.width < 40 || r.height < 40)).length);
    assert(small === 0, `${small} tap targets smaller than 40 px`);
    await shot(env, P, 'table-375.png');
    await P.setViewportSize({ width: 1280, height: 800 });
    await shot(env, P, 'table-1280.png');
    await P.goto(`${env.base}/`);
    await P.waitForSelector('body[data-ready="true"]');
    await shot(env, P, 'lobby-1280.png');
    if (shared.invite) {
      // The finished game of the first test, watched on a phone.
      await P.setViewportSize(phone);
      await P.goto(`${shared.invite}?watch`);
      await P.waitForFunction(() => document.body.dataset.ready === 'true' && document.body.dataset.seat === 'watch');
      assert((await width()) <= 375, `a finished table is ${await width()} px wide`);
      await shot(env, P, 'table-over-375.png');
    }
    assert(P.errors.length === 0, `errors on the page: ${P.errors.join('; ')}`);
  },

  // A ruleset of one's own, from a file: the table plays it. One that does not check is
  // refused with the checker's words.
  async a_ruleset_of_ones_own(env) {
    const original = fs.readFileSync(path.join(root, 'rulesets', 'ninety-nine-long.rules'), 'utf8');
    // Its name as a stranger might write it: shown as text, never as HTML.
    const text = original.replace(/^name .*$/m, 'name "Long <b>pasted</b> Ninety-Nine"');
    assert(text !== original, 'the variant was renamed');
    const P = await person(env.browser, `${env.base}/`);
    env.pages.push(P);
    await P.waitForSelector('body[data-ready="true"]');
    await P.selectOption($('ruleset'), ':own');
    await P.waitForSelector($('source'), { state: 'visible' });
    await P.setInputFiles($('file'), { name: 'mine.rules', mimeType: 'text/plain', buffer: Buffer.from(text) });
    await P.waitForFunction((t) => document.querySelector('[data-test="source"]').value === t, text);
    await P.selectOption($('players'), '3');
    await P.selectOption($('seat-kind-1'), 'cautious');
    await P.selectOption($('seat-kind-2'), 'random');
    await P.click($('open'));
    await P.waitForFunction(() => document.body.dataset.seat === '0' && document.body.dataset.ready === 'true');
    await P.waitForSelector($('total'));
    const chips = await P.$$eval('[data-test="seat"]', (ss) => ss.map((s) => s.getAttribute('data-chips')));
    assert(chips.length === 3, `three seats: ${chips}`);
    assert(chips.every((c) => c === '5' || c === '4'), `the variant's five chips each: ${chips}`);
    assert((await P.$$('#board b, #log b, #status b')).length === 0, 'a name with markup is not markup');
    const t = P.received.find((m) => m.type === 'table');
    assert(t && t.started === true, 'every seat but mine is a bot: the game has started');

    const Q = await person(env.browser, `${env.base}/`);
    env.pages.push(Q);
    await Q.waitForSelector('body[data-ready="true"]');
    await Q.selectOption($('ruleset'), ':own');
    await Q.fill($('source'), 'this is not a rule\n');
    await Q.selectOption($('players'), '2');
    await Q.selectOption($('seat-kind-1'), 'cautious');
    await Q.click($('open'));
    await Q.waitForSelector($('error'), { state: 'visible' });
    const said = await Q.textContent($('error'));
    assert(/keyword/.test(said) && /this/.test(said), `the checker's words: ${said}`);
    const refused = Q.received.find((m) => m.type === 'refused' || m.type === 'error');
    assert(refused && refused.type === 'refused', `the server refused it: ${JSON.stringify(refused)}`);
    assert(new URL(Q.url()).pathname === '/', 'still in the lobby');
    assert(!(await Q.isDisabled($('open'))), 'the button can be pressed again');
    await shot(env, Q, 'lobby-error-1280.png');
    for (const p of [P, Q]) assert(p.errors.length === 0, `errors on the page: ${p.errors.join('; ')}`);
    return `refused: ${(said.split('\n').find((l) => /×/.test(l)) ?? said.split('\n')[0]).trim()}`;
  },
};

async function shot(env, page, name) {
  const file = path.join(env.shots, name);
  await page.screenshot({ path: file, fullPage: true });
  env.shotPaths.push(file);
}

async function main() {
  const only = process.argv.slice(2);
  const bin = process.env.NINETY_BIN;
  if (!bin) {
    console.log('FAILED setup: NINETY_BIN is not set (NINETY_BIN=target/release/ninety node web/test/serve.mjs)');
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ninety-serve-'));
  const shots = path.join(tmp, 'shots');
  fs.mkdirSync(shots);
  const server = new Server(path.resolve(bin), path.join(tmp, 'tables.db'));
  const stop = () => {
    if (server.alive()) server.child.kill('SIGKILL');
  };
  process.on('exit', stop);
  let passed = 0;
  let failed = 0;
  let browser = null;
  try {
    let base;
    try {
      base = await server.start();
    } catch (e) {
      console.log(`FAILED setup: ${e.message}`);
      failed++;
      return;
    }
    console.log(`server: ${base}, tables in ${path.join(tmp, 'tables.db')}`);
    if (PAGE_DIR) console.log(`the page's files from ${PAGE_DIR}`);
    else {
      // The page built into the binary may be older than the one in the source tree: said.
      const here = path.join(root, 'src', 'app', 'serve', 'page');
      for (const [at, [file]] of Object.entries({ ...PAGE_FILES, '/': ['index.html'] })) {
        const served = await fetch(`${base}${at}`).then((r) => r.text()).catch(() => null);
        const kept = fs.existsSync(path.join(here, file)) ? fs.readFileSync(path.join(here, file), 'utf8') : null;
        if (served !== null && kept !== null && served !== kept) console.log(`note: the binary serves another ${file} than ${path.join(here, file)} (built before its last edit)`);
      }
    }
    // A page fulfilled by the test has no address of its own: Chromium would then keep it
    // from the server's socket at 127.0.0.1 (Local Network Access).
    const args = PAGE_DIR ? [...ARGS, '--disable-features=LocalNetworkAccessChecks'] : ARGS;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args });
    for (const [name, test] of Object.entries(tests)) {
      if (only.length > 0 && !only.includes(name)) continue;
      const env = { browser, base: `http://127.0.0.1:${server.port}`, server, shots, shotPaths: [], pages: [] };
      if (!server.alive()) {
        try {
          await server.start();
        } catch (e) {
          console.log(`FAILED ${name}: the server could not be started again: ${e.message}`);
          failed++;
          continue;
        }
      }
      try {
        const note = await test(env);
        console.log(`ok ${name}${note ? ` (${note})` : ''}`);
        passed++;
      } catch (e) {
        console.log(`FAILED ${name}: ${e.stack ?? e}`);
        for (const p of env.pages) {
          if (p.isClosed()) continue;
          const said = p.received.slice(-4).map((m) => JSON.stringify(m).slice(0, 400));
          console.log(`  page ${p.url()}: body ${JSON.stringify(await p.evaluate(() => ({ ...document.body.dataset })).catch(() => ({})))}`);
          console.log(`    status: ${await p.textContent($('status')).catch(() => '?')}`);
          for (const s of said) console.log(`    received: ${s}`);
          if (p.errors.length) console.log(`    page errors: ${p.errors.join('; ')}`);
        }
        console.log(`  the server said (last lines): ${server.tail().split('\n').slice(-15).join('\n    ')}`);
        failed++;
      } finally {
        for (const p of env.pages) await p.context().close().catch(() => {});
        for (const s of env.shotPaths) console.log(`  screenshot: ${s}`);
      }
    }
  } finally {
    if (browser) await browser.close().catch(() => {});
    await server.kill().catch(() => {});
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed === 0 ? 0 : 1);
  }
}

await main();
