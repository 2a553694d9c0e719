// A worker holding one instance of the wasm module: the page's engine (check, hover,
// completion, the game) or its simulation. Each request is {id, op, ...}; each answer is
// {id, ok} or {id, panic} (a panic in Rust aborts the module, so the page ends this worker
// and starts a new one) or {id, error} (JavaScript's own failure). A simulation also sends
// {id, progress} as it goes, and stops at the next slice when asked {op: 'stop'}.
import init, { Playground, examples } from '../pkg/ninety_web.js';

let lastPanic = null;
// Called by the Rust panic hook (web/src/lib.rs) just before the module aborts.
self.ninetyPanic = (message) => {
  lastPanic = message;
};

const ready = init({ module_or_path: new URL('ninety_web_bg.wasm', import.meta.url) }).then(() => new Playground());

// The operations the page sends; any other is refused.
const OPS = new Set(['examples', 'check', 'checkFull', 'hover', 'complete', 'newGame', 'play', 'simulate', 'judge', 'timeChecks', 'panic']);

// The simulation under way is stopped at its next slice.
let stopAsked = false;
// A simulation or a judge under way: the worker takes one at a time.
let running = false;

// Lets the worker read its messages (a request to stop) between two slices.
function breathe() {
  return new Promise((resolve) => {
    const c = new MessageChannel();
    c.port1.onmessage = () => resolve();
    c.port2.postMessage(0);
  });
}

function withErrors(pg, text, what) {
  const checked = JSON.parse(pg.check(text));
  const errors = checked.diagnostics.filter((d) => d.severity === 'error').length;
  return errors > 0 ? { error: `the ruleset has ${errors} error${errors === 1 ? '' : 's'}: mend ${errors === 1 ? 'it' : 'them'} to ${what} it` } : null;
}

function sets(msg) {
  return JSON.stringify(msg.sets ?? {});
}

// A simulation, a slice at a time: progress after each slice (at most ten a second), and the
// report of what was played, whole or up to a stop.
async function simulate(pg, msg) {
  const refused = withErrors(pg, msg.text, msg.against ? 'compare' : 'simulate');
  if (refused) return refused;
  const t0 = performance.now();
  let p = JSON.parse(pg.run_start(BigInt(msg.games), msg.players, msg.bots, BigInt(msg.seed), sets(msg), msg.against ?? '', msg.file ?? 'playground.rules'));
  if (p.error) return p;
  stopAsked = false;
  let told = 0;
  while (!p.done) {
    p = JSON.parse(pg.run_step());
    if (p.error) return p;
    const now = performance.now();
    if (now - told > 100 || p.done) {
      told = now;
      self.postMessage({ id: msg.id, progress: { played: p.played, games: p.games } });
    }
    await breathe();
    if (stopAsked) break;
  }
  const out = JSON.parse(pg.run_report());
  out.ms = performance.now() - t0;
  out.stopped = stopAsked && out.games < out.asked;
  stopAsked = false;
  return out;
}

function answer(pg, msg) {
  switch (msg.op) {
    case 'examples':
      return JSON.parse(examples());
    case 'check':
    case 'checkFull': {
      const t0 = performance.now();
      const out = JSON.parse(msg.op === 'check' ? pg.check(msg.text) : pg.check_full(msg.text));
      out.ms = performance.now() - t0;
      out.full = msg.op === 'checkFull';
      return out;
    }
    case 'hover':
      return JSON.parse(pg.hover(msg.line, msg.character));
    case 'complete':
      // About the text as typed, which a check not yet run has not given the engine.
      if (typeof msg.text === 'string' && !pg.holds(msg.text)) pg.check(msg.text);
      return JSON.parse(pg.complete(msg.line, msg.character));
    case 'newGame':
      return JSON.parse(pg.new_game(msg.players, msg.bot, BigInt(msg.seed), sets(msg)));
    case 'play':
      return JSON.parse(pg.play(String(msg.send ?? '')));
    case 'simulate':
      return simulate(pg, msg);
    case 'judge': {
      const refused = withErrors(pg, msg.text, 'judge');
      if (refused) return refused;
      const t0 = performance.now();
      const out = JSON.parse(pg.judge(BigInt(msg.games), msg.players, msg.bot, BigInt(msg.seed), sets(msg), msg.file ?? 'playground.rules', String(msg.by ?? '')));
      out.ms = performance.now() - t0;
      return out;
    }
    case 'timeChecks': {
      // Each shipped ruleset checked `times` times as on a keystroke, and as on opening it
      // (scenarios and dry run): the best time of each, in ms (the work's own cost on a
      // machine others share), and the median. The engine answers a text it holds already
      // at once, so before each check it is given the text one keystroke away.
      const timed = (text, check) => {
        const times = [];
        for (let i = 0; i < msg.times; i++) {
          pg.check(`${text} `);
          const t0 = performance.now();
          check(text);
          times.push(performance.now() - t0);
        }
        times.sort((a, b) => a - b);
        return [times[0], times[Math.floor(times.length / 2)]];
      };
      return JSON.parse(examples()).map(({ name, text }) => {
        const [ms, medianMs] = timed(text, (t) => pg.check(t));
        const [fullMs, fullMedianMs] = timed(text, (t) => pg.check_full(t));
        return { name, ms, medianMs, fullMs, fullMedianMs };
      });
    }
    case 'panic':
      pg.panic_for_test();
      return null;
    default:
      throw new Error(`unknown request ${msg.op}`);
  }
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg?.op === 'stop') {
    stopAsked = true;
    return;
  }
  if (!OPS.has(msg?.op)) {
    self.postMessage({ id: msg?.id, error: `the engine does not take \`${String(msg?.op).slice(0, 40)}\`` });
    return;
  }
  let pg;
  try {
    pg = await ready;
  } catch (e) {
    self.postMessage({ id: msg.id, error: `the engine did not load: ${e}` });
    return;
  }
  const long = msg.op === 'simulate' || msg.op === 'judge';
  if (long && running) {
    self.postMessage({ id: msg.id, error: 'a run is under way: stop it first' });
    return;
  }
  try {
    if (long) running = true;
    self.postMessage({ id: msg.id, ok: await answer(pg, msg) });
  } catch (e) {
    if (lastPanic !== null || e instanceof WebAssembly.RuntimeError) {
      self.postMessage({ id: msg.id, panic: lastPanic ?? String(e) });
    } else {
      self.postMessage({ id: msg.id, error: String(e) });
    }
  } finally {
    if (long) running = false;
  }
};
