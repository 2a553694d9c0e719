// A worker holding one instance of the wasm module: the page's engine (check, hover,
// completion, the game) or its simulation. Each request is {id, op, ...}; each answer is
// {id, ok} or {id, panic} (a panic in Rust aborts the module, so the page ends this worker
// and starts a new one) or {id, error} (JavaScript's own failure).
import init, { Playground, examples } from '../pkg/ninety_web.js';

let lastPanic = null;
// Called by the Rust panic hook (web/src/lib.rs) just before the module aborts.
self.ninetyPanic = (message) => {
  lastPanic = message;
};

const ready = init({ module_or_path: new URL('ninety_web_bg.wasm', import.meta.url) }).then(() => new Playground());

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
      return JSON.parse(pg.complete(msg.line, msg.character));
    case 'newGame':
      return JSON.parse(pg.new_game(msg.players, msg.bot, BigInt(msg.seed)));
    case 'play':
      return JSON.parse(pg.play(msg.send));
    case 'simulate': {
      const checked = JSON.parse(pg.check(msg.text));
      const errors = checked.diagnostics.filter((d) => d.severity === 'error');
      if (errors.length > 0) {
        return { error: `the ruleset has ${errors.length} error(s): mend them to simulate it` };
      }
      const t0 = performance.now();
      const out = JSON.parse(pg.simulate(BigInt(msg.games), msg.players, msg.bots, BigInt(msg.seed)));
      out.ms = performance.now() - t0;
      return out;
    }
    case 'judge': {
      const checked = JSON.parse(pg.check(msg.text));
      if (checked.diagnostics.some((d) => d.severity === 'error')) {
        return { error: 'the ruleset has errors: mend them to judge it' };
      }
      const t0 = performance.now();
      const out = JSON.parse(pg.judge(BigInt(msg.games), msg.players, msg.bot, BigInt(msg.seed)));
      out.ms = performance.now() - t0;
      return out;
    }
    case 'timeChecks': {
      // Each shipped ruleset checked `times` times as on a keystroke, and as on opening it
      // (scenarios and dry run): the best time of each, in ms (the work's own cost on a
      // machine others share), and the median.
      const timed = (f) => {
        const times = [];
        for (let i = 0; i < msg.times; i++) {
          const t0 = performance.now();
          f();
          times.push(performance.now() - t0);
        }
        times.sort((a, b) => a - b);
        return [times[0], times[Math.floor(times.length / 2)]];
      };
      return JSON.parse(examples()).map(({ name, text }) => {
        const [ms, medianMs] = timed(() => pg.check(text));
        const [fullMs, fullMedianMs] = timed(() => pg.check_full(text));
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
  let pg;
  try {
    pg = await ready;
  } catch (e) {
    self.postMessage({ id: msg.id, error: `the engine did not load: ${e}` });
    return;
  }
  try {
    self.postMessage({ id: msg.id, ok: answer(pg, msg) });
  } catch (e) {
    if (lastPanic !== null || e instanceof WebAssembly.RuntimeError) {
      self.postMessage({ id: msg.id, panic: lastPanic ?? String(e) });
    } else {
      self.postMessage({ id: msg.id, error: String(e) });
    }
  }
};
