// The playground in a real browser: Debian's Chromium driven by playwright-core, the page served
// from web/dist by web/serve.mjs. `node web/test/browser.mjs [NAME...]` runs every test (or the
// named ones) and prints `ok NAME` or `FAILED NAME: why` for each, then `N passed, N failed`;
// it exits non-zero when one failed. web/tests/browser.rs runs it inside `cargo test`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../serve.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '..', 'dist');
const CHROMIUM = process.env.NINETY_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

function assert(cond, why) {
  if (!cond) throw new Error(why);
}

// Time budgets are asserted only with NINETY_TIMING_TESTS=1: otherwise a test reports its
// times and passes or fails on what the page does, never on how busy the machine is.
const TIMING = process.env.NINETY_TIMING_TESTS === '1';

function budget(within, why) {
  if (TIMING) assert(within, why);
}

const $ = (name) => `[data-test="${name}"]`;

// Opens the page on a fresh storage and waits for its first check.
async function open(ctx, base, hash = '') {
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${base}${hash}`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector('body[data-checked]');
  page.errors = errors;
  return page;
}

async function checks(page) {
  return Number(await page.getAttribute('body', 'data-checked'));
}

// Waits for a check newer than `after`.
async function nextCheck(page, after) {
  await page.waitForFunction((n) => Number(document.body.getAttribute('data-checked')) > n, after);
}

async function diagnosticLines(page) {
  return page.$$eval(`${$('diagnostics')} li`, (lis) => lis.map((li) => li.textContent));
}

async function pick(page, name) {
  const before = await checks(page);
  await page.selectOption($('examples'), name);
  await nextCheck(page, before);
}

// A share link of `source`, as the page makes it.
async function linkOf(page, source) {
  return page.evaluate(async (t) => {
    const packed = new Blob([new TextEncoder().encode(t)]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    const bytes = new Uint8Array(await new Response(packed).arrayBuffer());
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b);
    return `#r=${btoa(s).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}`;
  }, source);
}

async function typeAtEnd(page, text) {
  await page.click($('editor'));
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
}


async function text(page) {
  return page.evaluate(() => window.ninetyTest.text());
}

// The first moves of a game until it ends: one click a move (the `n`th button, in turn).
async function playToTheEnd(page) {
  let moves = 0;
  for (; moves < 2000; moves++) {
    await page.waitForFunction(() => {
      const t = document.querySelector('[data-test="table"]');
      const b = t.querySelectorAll('[data-test="play-move"]');
      return t.getAttribute('data-over') === 'true' || (b.length > 0 && !b[0].disabled);
    });
    if ((await page.getAttribute($('table'), 'data-over')) === 'true') break;
    const buttons = await page.$$(`${$('table')} ${$('play-move')}`);
    await buttons[moves % buttons.length].click();
  }
  return moves;
}

// A new variant of a shipped game, as a person starts one.
async function startVariant(page, name) {
  const before = await checks(page);
  await page.selectOption($('new-variant'), name);
  await nextCheck(page, before);
}

// Waits for a run's report of `kind`.
async function report(page, kind) {
  await page.waitForSelector(`${$('report')}[data-kind="${kind}"]`, { timeout: 600_000 });
  await page.waitForFunction(() => !document.querySelector('[data-test="sim-run"]').disabled);
  return page.textContent(`${$('report')} pre`);
}

// Opens another page of the same browser (another tab), as `open` does.
async function tab(page, hash = '') {
  return open(page.context(), page.url().split('#')[0], hash);
}

const tests = {
  // A mistake typed on a new last line is said at that line, under it; removed, it goes.
  async diagnostics(page) {
    await pick(page, 'ninety-nine');
    assert((await diagnosticLines(page)).length === 0, 'ninety-nine checks clean');
    const lines = await page.evaluate(() => window.ninetyTest.text().split('\n').length);
    const before = await checks(page);
    await typeAtEnd(page, '\ncard Z: add 5');
    const at = lines + 1;
    await page.waitForFunction(
      (n) => [...document.querySelectorAll('[data-test="diagnostics"] li')].some((li) => li.textContent.startsWith(`line ${n} `)),
      at,
    );
    assert((await checks(page)) > before, 'a check ran');
    const said = await diagnosticLines(page);
    assert(said.every((d) => d.startsWith(`line ${at} `)), `only line ${at} is wrong: ${said}`);
    assert(said.some((d) => /error/.test(d)), `an error: ${said}`);
    const under = await page.$$eval('.cm-under', (w) => w.map((x) => x.textContent));
    assert(under.length > 0, 'the message is drawn under the line');
    for (let i = 0; i < '\ncard Z: add 5'.length; i++) await page.keyboard.press('Backspace');
    await page.waitForFunction(() => document.querySelectorAll('[data-test="diagnostics"] li').length === 0);
    assert((await page.$$('.cm-under')).length === 0, 'the message under the line went too');
  },

  // An example's rules sheet is beside its text.
  async examples(page) {
    await pick(page, 'ninety-eight');
    const sheet = await page.textContent($('sheet'));
    assert(/Ninety-Eight/.test(sheet), `the sheet names the game: ${sheet.slice(0, 200)}`);
    const text = await page.evaluate(() => window.ninetyTest.text());
    assert(/Ninety-Eight/.test(text), 'the editor holds the example');
    await pick(page, '33-66-99');
    const other = await page.textContent($('sheet'));
    assert(other !== sheet && /33/.test(other), 'another example, another sheet');
  },

  // A whole game against bots, one click a move, to its end; the log in the page's words
  // (no command to type, no `--seed`), and who won said by the buttons. The seed field deals
  // the same game again.
  async game(page) {
    await pick(page, 'ninety-nine-quick');
    await page.fill($('seed'), '42');
    await page.click('#new-game:not([disabled])');
    await page.waitForSelector(`${$('table')} ${$('play-move')}`);
    const dealt = await page.textContent('#table-text');
    const moves = await playToTheEnd(page);
    assert((await page.getAttribute($('table'), 'data-over')) === 'true', `the game ended (${moves} moves)`);
    assert((await page.$$(`${$('table')} ${$('play-move')}`)).length === 0, 'no moves after the end');
    const log = await page.textContent('#table-text');
    assert(/Bot 1/.test(log), 'the bots played');
    assert(moves > 0, 'the human played');
    for (const word of ['Type ', '`help`', '`quit`', '`new`', '--seed', 'Enter']) {
      assert(!log.includes(word), `the log says ${JSON.stringify(word)}: ${log.slice(0, 400)}`);
    }
    assert(/Seed 42: the same seed/.test(log), `the seed in the page's words: ${log.slice(0, 300)}`);
    const over = await page.textContent($('game-over'));
    assert(/^Game over: (.+ won|no winner|the game stopped.*)\.$/.test(over), `who won: ${over}`);
    await page.click('#new-game:not([disabled])');
    await page.waitForSelector(`${$('table')} ${$('play-move')}`);
    assert((await page.textContent('#table-text')) === dealt, 'the same seed deals the same game');
    return `${moves} moves, ${over}`;
  },

  // The line typed at the end of the file stays in view when a message is drawn under the
  // line before it.
  async typedLineInView(page) {
    await pick(page, 'ninety-nine');
    const before = await checks(page);
    await typeAtEnd(page, '\ncard 7: ad 7');
    await nextCheck(page, before);
    await page.waitForSelector('.cm-under');
    const next = await checks(page);
    await page.keyboard.type('\n# and a note typed after it');
    await nextCheck(page, next);
    await page.waitForTimeout(200);
    const where = await page.evaluate(() => {
      const scroller = document.querySelector('.cm-scroller').getBoundingClientRect();
      const cursor = document.querySelector('.cm-cursor, .cm-cursor-primary')?.getBoundingClientRect();
      const lines = [...document.querySelectorAll('.cm-line')];
      const typed = lines.find((l) => l.textContent.startsWith('# and a note typed after it'))?.getBoundingClientRect();
      const box = [...document.querySelectorAll('.cm-under')].find((b) => b.textContent.includes('`ad`'))?.getBoundingClientRect();
      return { scroller, cursor, typed, box };
    });
    assert(where.typed, 'the typed line is drawn');
    assert(where.typed.bottom <= where.scroller.bottom + 1 && where.typed.top >= where.scroller.top - 1,
      `the typed line (${where.typed.top}..${where.typed.bottom}) is inside the editor (${where.scroller.top}..${where.scroller.bottom})`);
    assert(where.box && where.box.bottom <= where.typed.top + 1, 'the message is above the typed line, not over it');
    return `typed line at ${Math.round(where.typed.bottom)} of ${Math.round(where.scroller.bottom)}`;
  },

  // Completion opens by itself where the grammar expects a word: after `card Q: `.
  async completion(page) {
    await startVariant(page, 'ninety-nine');
    const before = await checks(page);
    await typeAtEnd(page, 'card Q: ');
    // The check of the typed text redraws the diagnostics; the choice is made once it has.
    await nextCheck(page, before);
    await page.waitForSelector('.cm-tooltip-autocomplete', { timeout: 10_000 });
    await page.waitForTimeout(300);
    const items = await page.$$eval('.cm-tooltip-autocomplete li', (lis) => lis.map((li) => li.textContent));
    const add = items.findIndex((i) => i.startsWith('add'));
    assert(add >= 0, `the effects are offered: ${items.slice(0, 8)}`);
    // The first item is selected: down to `add`, then Enter.
    for (let k = 0; k < add; k++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const line = (await text(page)).trimEnd().split('\n').pop();
    assert(/^card Q: add/.test(line), `the chosen word is written: ${line} (offered: ${items.slice(0, 8)})`);
  },

  // While the text has an error, the last good rules sheet stays, greyed; mended, it is the
  // text's own again.
  async staleSheet(page) {
    await pick(page, 'ninety-nine');
    const sheet = await page.textContent($('sheet'));
    assert(/Ninety-Nine/.test(sheet), 'a sheet');
    const before = await checks(page);
    await typeAtEnd(page, '\ncard Z: add 5');
    await nextCheck(page, before);
    await page.waitForFunction(() => document.querySelectorAll('[data-test="diagnostics"] li').length > 0);
    assert((await page.textContent($('sheet'))) === sheet, 'the last good sheet stays');
    assert((await page.getAttribute($('sheet'), 'data-stale')) === 'true', 'marked stale');
    assert(/last version without errors/.test(await page.textContent($('sheet-note'))), 'and said so');
    const grey = await page.$eval($('sheet'), (e) => getComputedStyle(e).color);
    assert(grey !== 'rgb(34, 34, 34)', `greyed: ${grey}`);
    for (let i = 0; i < '\ncard Z: add 5'.length; i++) await page.keyboard.press('Backspace');
    await page.waitForFunction(() => document.querySelector('[data-test="sheet"]').getAttribute('data-stale') === 'false');
  },

  // "New variant of" starts a file that extends the game and names itself; a house rule
  // added to it checks clean. A rule added to a copy of the game conflicts, and the page then
  // points to a variant.
  async variant(page) {
    await pick(page, 'ninety-nine');
    await typeAtEnd(page, '\ncard 7: add 7 and play again');
    await page.waitForSelector(`${$('variant-hint')}:not([hidden])`);
    const said = await page.textContent($('variant-hint'));
    assert(/variant/.test(said) && /extends/.test(said), `the hint: ${said}`);
    const mine = await text(page);
    const before = await checks(page);
    await page.click($('variant-hint-start'));
    await nextCheck(page, before);
    const start = await text(page);
    assert(start.startsWith('extends "ninety-nine"\nname "My Ninety-Nine"\n'), `the variant: ${start.slice(0, 80)}`);
    assert((await diagnosticLines(page)).length === 0, 'the new variant checks clean');
    const next = await checks(page);
    await typeAtEnd(page, 'card 7: add 7 and play again\n');
    await nextCheck(page, next);
    await page.waitForFunction(() => /Card 7: add 7 and play again/.test(document.querySelector('[data-test="sheet"]').textContent));
    assert((await diagnosticLines(page)).length === 0, 'the house rule checks clean in the variant');
    // The copy with the conflict was kept, as work of its own.
    const work = await page.$$eval(`${$('work')} option`, (os) => os.map((o) => o.textContent));
    assert(work.length === 2, `both pieces of work are listed: ${work}`);
    assert(await page.evaluate((t) => Object.keys(localStorage).some((k) => localStorage.getItem(k) === t), mine), 'the copy is kept');
  },

  // The variant against its parent on the same deals: `ninety sim A B`'s comparison, its
  // command naming the downloaded file.
  async compare(page) {
    await startVariant(page, 'ninety-nine');
    const before = await checks(page);
    await typeAtEnd(page, 'card 7: add 7 and play again\n');
    await nextCheck(page, before);
    assert((await page.inputValue($('sim-against'))) === 'ninety-nine', 'the parent is picked to compare with');
    await page.fill($('sim-games'), '2000');
    await page.click($('compare-run'));
    const said = await report(page, 'compare');
    assert(/same deals/.test(said), `a comparison on the same deals: ${said.slice(0, 200)}`);
    assert(/A is Ninety-Nine \(ninety-nine\)/.test(said), 'A is the parent');
    assert(/B is My Ninety-Nine \(my-ninety-nine\.rules\)/.test(said), 'B is the variant, as the downloaded file');
    assert(/beyond chance/.test(said), 'with its tests');
    const html = await page.$eval(`${$('report')} iframe`, (f) => f.srcdoc);
    assert(html.includes('ninety sim ninety-nine my-ninety-nine.rules --games 2000'), 'the command names both');
    assert(/my-ninety-nine\.rules/.test(await page.textContent($('report-file'))), 'the page says which file the command names');
  },

  // The options as controls: chips set to 5 deals 5 chips, and the run's command says so.
  async options(page) {
    await pick(page, 'ninety-nine');
    const field = $('option-chips');
    await page.waitForSelector(field);
    assert((await page.getAttribute(field, 'min')) === '1' && (await page.getAttribute(field, 'max')) === '10', 'from 1 to 10');
    await page.fill(field, '5');
    await page.click('#new-game:not([disabled])');
    await page.waitForSelector(`${$('table')} ${$('play-move')}`);
    const scores = await page.textContent('#table-scores');
    assert(/You: 5/.test(scores), `5 chips each: ${scores}`);
    await page.fill($('sim-games'), '200');
    await page.click($('sim-run'));
    await report(page, 'simulate');
    const html = await page.$eval(`${$('report')} iframe`, (f) => f.srcdoc);
    assert(html.includes('--set chips=5'), 'the command sets the option');
    await page.fill(field, '11');
    await page.click($('sim-run'));
    await page.waitForFunction(() => /chips must be/.test(document.getElementById('sim-status').textContent));
    // A yes/no option is a box to tick.
    await pick(page, '33-66-99');
    await page.waitForSelector(`${$('option-by_hand')}[type="checkbox"]`);
  },

  // A long run shows its progress and stops when asked, with the report of the games played;
  // a judge stops too, and the next run works.
  async progress(page) {
    await pick(page, 'ninety-nine');
    await page.fill($('sim-games'), '1000000');
    await page.click($('sim-run'));
    await page.waitForFunction(() => Number(document.querySelector('[data-test="sim-progress"]').value) > 0, null, { timeout: 120_000 });
    assert(/of 1000000/.test(await page.textContent($('sim-status'))), 'the count is said');
    await page.click($('sim-stop'));
    const said = await report(page, 'simulate');
    const games = Number(await page.getAttribute($('report'), 'data-games'));
    assert(games > 0 && games < 1_000_000, `stopped early: ${games}`);
    assert(/stopped/.test(await page.textContent($('sim-status'))), 'the status says it stopped');
    assert(said.includes(`covers ${games} of the 1000000 games`), 'the report says what it covers');
    await page.click($('judge-run'));
    await page.waitForSelector(`${$('sim-stop')}:not([hidden])`);
    await page.waitForTimeout(500);
    await page.click($('sim-stop'));
    await page.waitForFunction(() => !document.querySelector('[data-test="judge-run"]').disabled);
    assert(/stopped/.test(await page.textContent($('sim-status'))), 'the judge stopped');
    await page.fill($('sim-games'), '100');
    await page.click($('judge-run'));
    await report(page, 'judge');
    const command = await page.textContent(`${$('report-file')} code`);
    assert(command === 'ninety judge ninety-nine.rules --games 100 --players 3 --bot cautious --seed 1', `the judge's command: ${command}`);
    return `stopped after ${games} games`;
  },

  // The share link is copied and says so; the download is the text, named as the report's
  // command names it.
  async shareAndDownload(page) {
    await startVariant(page, 'ninety-nine');
    await page.click($('share'));
    await page.waitForSelector(`${$('share-said')}[data-copied="true"]`);
    assert(/Link copied/.test(await page.textContent($('share-said'))), 'the copy is said');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert(copied === (await page.getAttribute($('share'), 'href')) && copied.includes('#r='), `the link is on the clipboard: ${copied.slice(0, 60)}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click($('download'))]);
    assert(download.suggestedFilename() === 'my-ninety-nine.rules', `the file: ${download.suggestedFilename()}`);
    const saved = fs.readFileSync(await download.path(), 'utf8');
    assert(saved === (await text(page)), 'the file holds the text');
  },

  // Opening a share link opens it as new work beside the work kept: nothing is lost.
  async linkKeepsWork(page) {
    await typeAtEnd(page, '\n# MY OWN WORK');
    await page.waitForTimeout(300);
    const mine = await text(page);
    const other = await tab(page, await linkOf(page, 'extends "ninety-nine"\nname "A stranger\'s"\n'));
    assert((await text(other)).includes('A stranger'), 'the link\'s text is shown');
    assert(/new work/.test(await other.textContent($('notice'))), 'and said to be new work');
    const kept = await other.evaluate(() => Object.values(localStorage));
    assert(kept.includes(mine), 'my own work is still stored');
    await page.reload();
    await page.waitForSelector('body[data-checked]');
    assert((await text(page)) === mine, 'my tab still shows my work');
    await page.close();
    // The work list of the link's tab opens my work again.
    const id = await other.$eval($('work'), (s) => [...s.options].find((o) => !o.textContent.includes('this tab')).value);
    await other.selectOption($('work'), id);
    await other.waitForFunction((t) => window.ninetyTest.text() === t, mine);
    await other.close();
  },

  // Two tabs each keep their own text: a reload of either shows what was typed in it.
  async twoTabs(page) {
    const b = await tab(page);
    await typeAtEnd(page, '\n# typed in tab A');
    await typeAtEnd(b, '\n# typed in tab B');
    await page.waitForTimeout(300);
    await page.reload();
    await page.waitForSelector('body[data-checked]');
    await b.reload();
    await b.waitForSelector('body[data-checked]');
    const [ta, tb] = [await text(page), await text(b)];
    assert(ta.includes('tab A') && !ta.includes('tab B'), 'tab A keeps its text');
    assert(tb.includes('tab B') && !tb.includes('tab A'), 'tab B keeps its text');
    await b.close();
  },

  // A broken share link says so, and the work kept is shown.
  async brokenLink(page) {
    await typeAtEnd(page, '\n# kept work');
    await page.waitForTimeout(300);
    const mine = await text(page);
    await page.close();
    const again = await open(page.context(), page.url().split('#')[0], '#r=AQIDBAX6-w');
    const said = await again.textContent($('notice'));
    assert(/share link is broken/.test(said), `said: ${said}`);
    assert((await text(again)) === mine, 'the work kept is shown');
    await again.close();
  },

  // The engine takes only the moves the table offers: a terminal command is refused, and
  // the game goes on.
  async refused(page) {
    await pick(page, 'ninety-nine');
    await page.click('#new-game:not([disabled])');
    await page.waitForSelector(`${$('table')} ${$('play-move')}`);
    for (const line of ['save x.json', 'load x.json', 'quit']) {
      const v = await page.evaluate((send) => window.ninetyTest.ask('play', { send }), line);
      assert(v.refused === true && /not a move/.test(v.text), `${line}: ${JSON.stringify(v).slice(0, 200)}`);
    }
    const odd = await page.evaluate(() => window.ninetyTest.ask('nonsense').then(() => 'answered', (e) => String(e)));
    assert(/does not take/.test(odd), `an unknown request: ${odd}`);
    assert(await page.$eval('#panic', (p) => p.hidden), 'no crash');
    const buttons = await page.$$(`${$('table')} ${$('play-move')}`);
    await buttons[0].click();
    await page.waitForFunction(() => /You play/.test(document.getElementById('table-text').textContent));
  },

  // The static server answers a malformed request with 400 and goes on serving.
  async server(page) {
    const base = page.url().split('#')[0];
    for (const bad of ['%E0%A4%A', 'a%00b']) {
      const r = await fetch(`${base}${bad}`);
      assert(r.status === 400, `${bad}: ${r.status}`);
    }
    assert((await fetch(`${base}..%2f..%2fetc%2fpasswd`)).status !== 200, 'nothing outside the folder');
    assert((await fetch(base)).status === 200, 'still serving');
  },

  // 10,000 games in the worker, the page's own thread beating meanwhile; its worst stall is
  // reported (a budget of 100 ms, asserted with NINETY_TIMING_TESTS=1).
  async simulation(page) {
    await pick(page, 'ninety-nine');
    await page.fill($('sim-games'), '10000');
    await page.evaluate(() => {
      window.beat = { last: performance.now(), worst: 0, beats: 0 };
      window.beatTimer = setInterval(() => {
        const now = performance.now();
        window.beat.worst = Math.max(window.beat.worst, now - window.beat.last);
        window.beat.last = now;
        window.beat.beats++;
      }, 10);
    });
    const t0 = Date.now();
    await page.click($('sim-run'));
    await page.waitForSelector(`${$('report')}[data-games="10000"]`, { timeout: 600_000 });
    // The heartbeat goes on after the report is drawn.
    await page.waitForTimeout(300);
    const beat = await page.evaluate(() => {
      clearInterval(window.beatTimer);
      return window.beat;
    });
    const secs = (Date.now() - t0) / 1000;
    assert(beat.beats > 10, `the heartbeat ran (${beat.beats})`);
    budget(beat.worst < 100, `the page stalled ${beat.worst.toFixed(0)} ms`);
    const report = await page.textContent(`${$('report')} pre`);
    assert(/10000 games|10,000 games|10 000 games/.test(report), `the text report: ${report.slice(0, 300)}`);
    const html = await page.$eval(`${$('report')} iframe`, (f) => f.srcdoc);
    assert(html.includes('<svg'), 'the report has its charts');
    return `10000 games in ${secs.toFixed(1)} s, worst heartbeat gap ${beat.worst.toFixed(0)} ms`;
  },

  // The judge's verdicts and page, from the same worker.
  async judge(page) {
    await pick(page, 'ninety-nine');
    await page.fill($('sim-games'), '500');
    await page.click($('judge-run'));
    await page.waitForSelector(`${$('report')}[data-kind="judge"][data-games="500"]`, { timeout: 600_000 });
    const text = await page.textContent(`${$('report')} pre`);
    assert(text.length > 100, `the judge's text: ${text.slice(0, 200)}`);
    const html = await page.$eval(`${$('report')} iframe`, (f) => f.srcdoc);
    assert(html.includes('<html') || html.includes('<!DOCTYPE') || html.includes('<!doctype'), 'the judge\'s page');
    // Side by side: each player count, then each value of an option.
    await page.fill($('sim-games'), '200');
    await page.fill($('judge-by'), 'players=2..3');
    await page.click($('judge-run'));
    await page.waitForSelector(`${$('report')}[data-kind="judge"][data-games="200"]`, { timeout: 600_000 });
    await page.waitForFunction(() => /by player count/.test(document.querySelector('[data-test="report"] pre')?.textContent ?? ''), null, { timeout: 600_000 });
    const counts = await page.textContent(`${$('report')} pre`);
    assert(/\n2 players:\n/.test(counts) && /\n3 players:\n/.test(counts), `each count: ${counts.slice(0, 300)}`);
    await page.fill($('judge-by'), 'chips=2,4');
    await page.click($('judge-run'));
    await page.waitForFunction(() => /by the value of chips/.test(document.querySelector('[data-test="report"] pre')?.textContent ?? ''), null, { timeout: 600_000 });
    await page.fill($('judge-by'), '');
  },

  // The share link reopens the very same text, on a page that stored nothing.
  async share(page) {
    await pick(page, 'ninety-nine');
    await typeAtEnd(page, '\n# ünïcödé — 🂡 and trailing spaces   ');
    await page.waitForSelector(`${$('share')}[data-ready="true"]`);
    const text = await page.evaluate(() => window.ninetyTest.text());
    const href = await page.getAttribute($('share'), 'href');
    assert(href.includes('#r='), `a fragment: ${href}`);
    await page.evaluate(() => localStorage.clear());
    const other = await page.context().newPage();
    await other.goto('about:blank');
    await other.goto(href);
    await other.waitForSelector('body[data-checked]');
    const back = await other.evaluate(() => window.ninetyTest.text());
    assert(back === text, `the same text: ${JSON.stringify(back.slice(-80))} vs ${JSON.stringify(text.slice(-80))}`);
    // Edits made after opening a link survive a reload: the link is not read again.
    await typeAtEnd(other, '\n# edited after');
    await other.reload();
    await other.waitForSelector('body[data-checked]');
    const kept = await other.evaluate(() => window.ninetyTest.text());
    assert(kept === `${text}\n# edited after`, 'edits after opening a link are kept');
    await other.close();
    return `${text.length} characters in ${href.split('#')[1].length} of link`;
  },

  // Work is kept: a reload shows what was typed.
  async storage(page) {
    await pick(page, 'ninety-eight');
    await typeAtEnd(page, '\n# kept');
    const text = await page.evaluate(() => window.ninetyTest.text());
    await page.reload();
    await page.waitForSelector('body[data-checked]');
    const back = await page.evaluate(() => window.ninetyTest.text());
    assert(back === text, 'the text survives a reload');
  },

  // A panic in the engine is shown, the worker starts again, and the next action works.
  async panic(page) {
    await pick(page, 'ninety-nine');
    await page.evaluate(() => window.ninetyTest.panic());
    await page.waitForSelector('#panic:not([hidden])');
    const said = await page.textContent('#panic-text');
    assert(/asked for by the page's test hook/.test(said), `the panic's message: ${said}`);
    const before = await checks(page);
    await typeAtEnd(page, '\ncard Z: add 5');
    await nextCheck(page, before);
    await page.waitForFunction(() => document.querySelectorAll('[data-test="diagnostics"] li').length > 0);
    for (let i = 0; i < '\ncard Z: add 5'.length; i++) await page.keyboard.press('Backspace');
    await page.waitForFunction(() => document.querySelectorAll('[data-test="diagnostics"] li').length === 0);
    await page.click('#new-game:not([disabled])');
    await page.waitForSelector(`${$('table')} ${$('play-move')}`);
  },

  // Hover says what a line means, from the rules sheet.
  async hover(page) {
    await pick(page, 'ninety-nine');
    const line = await page.$$eval('.cm-line', (ls) => ls.findIndex((l) => /^card\b/.test(l.textContent)));
    assert(line >= 0, 'a card line');
    const el = (await page.$$('.cm-line'))[line];
    await el.scrollIntoViewIfNeeded();
    const box = await el.boundingBox();
    // Past the line numbers, on the line's first words.
    await page.mouse.move(box.x + 60, box.y + box.height / 2, { steps: 5 });
    await page.waitForSelector('[data-test="hover"]', { state: 'attached', timeout: 10000 });
    const said = await page.textContent('[data-test="hover"]');
    assert(said.length > 5, `a hover: ${said}`);
  },

  // Every shipped ruleset checked a keystroke at a time (the best of seven in the worker: the
  // machine is shared, and the best is the work's own cost), and the full check once typing
  // pauses (scenarios, dry run): the times are reported; under 50 ms a keystroke is a budget,
  // asserted with NINETY_TIMING_TESTS=1.
  async speed(page) {
    const list = await page.evaluate(() => window.ninetyTest.timeChecks(7));
    assert(list.length > 0, 'every shipped ruleset was checked');
    const slow = list.filter((x) => x.ms >= 50);
    budget(slow.length === 0, `over 50 ms: ${JSON.stringify(slow)}`);
    const worst = list.reduce((a, b) => (b.ms > a.ms ? b : a));
    const full = list.reduce((a, b) => (b.fullMs > a.fullMs ? b : a));
    const over = slow.length > 0 ? `, ${slow.length} over the 50 ms budget` : '';
    return `${list.length} rulesets${over}, slowest keystroke check ${worst.name} ${worst.ms.toFixed(1)} ms (median ${worst.medianMs.toFixed(1)}), slowest full check ${full.name} ${full.fullMs.toFixed(1)} ms (median ${full.fullMedianMs.toFixed(1)})`;
  },

  // A failing scenario is found by the full check, once typing pauses.
  async scenarios(page) {
    await pick(page, 'ninety-nine-quick');
    const text = await page.evaluate(() => window.ninetyTest.text());
    const at = text.split('\n').findIndex((l) => l.trim() === 'expect chips 2, 1, 2');
    assert(at >= 0, 'the scenario line');
    // Long lines wrap, so the cursor is put at the line's end by the page's hook.
    await page.evaluate((n) => window.ninetyTest.endOfLine(n), at + 1);
    await page.keyboard.press('Backspace');
    await page.keyboard.type('1');
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-test="diagnostics"] li')].some((li) => /scenario/.test(li.textContent)),
      null,
      { timeout: 10000 },
    );
  },
};

async function main() {
  const only = process.argv.slice(2);
  const server = await serve(dist, 0);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ninety-playground-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    acceptDownloads: true,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  let passed = 0;
  let failed = 0;
  try {
    // The load: from navigation to the first check drawn.
    const t0 = Date.now();
    const first = await open(ctx, base);
    console.log(`load: interactive (first check drawn) in ${Date.now() - t0} ms`);
    await first.close();
    for (const [name, test] of Object.entries(tests)) {
      if (only.length > 0 && !only.includes(name)) continue;
      await ctx.clearCookies();
      // Each test starts on empty storage, on the standard game.
      const blank = await open(ctx, base);
      await blank.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
      await blank.close();
      const page = await open(ctx, base);
      try {
        const note = await test(page);
        assert(page.errors.length === 0, `errors on the page: ${page.errors.join('; ')}`);
        console.log(`ok ${name}${note ? ` (${note})` : ''}`);
        passed++;
      } catch (e) {
        console.log(`FAILED ${name}: ${e.stack ?? e}`);
        failed++;
      } finally {
        await page.close();
      }
    }
  } finally {
    await ctx.close();
    server.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

await main();
