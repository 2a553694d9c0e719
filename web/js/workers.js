// The page's workers, each one instance of the wasm module: `engine` (checks as you type,
// hover, completion, the game), `full` (the full check: scenarios, the dry run) and `sim`
// (simulations), so a long run never delays a check. A panic
// in Rust poisons its instance: the worker is ended at once, a new one started, and the page
// told, so the next action works.

export class PanicError extends Error {}
export class StoppedError extends Error {}

export class Worker2 {
  constructor(name, onPanic) {
    this.name = name;
    this.onPanic = onPanic;
    this.next = 1;
    this.pending = new Map();
    this.start();
  }

  start() {
    this.worker = new Worker(new URL('worker.js', import.meta.url), { type: 'module', name: this.name });
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.restart(`the ${this.name} worker failed: ${event.message || 'no message'}`);
    };
  }

  receive(msg) {
    const waiting = this.pending.get(msg.id);
    if (msg.panic !== undefined) {
      this.restart(msg.panic);
      return;
    }
    if (!waiting) return;
    if (msg.progress !== undefined) {
      waiting.onProgress?.(msg.progress);
      return;
    }
    this.pending.delete(msg.id);
    if (msg.error !== undefined) waiting.reject(new Error(msg.error));
    else waiting.resolve(msg.ok);
  }

  restart(message) {
    this.worker.terminate();
    const pending = [...this.pending.values()];
    this.pending.clear();
    this.start();
    for (const p of pending) p.reject(new PanicError(message));
    this.onPanic(message);
  }

  // `onProgress` is called with each progress report a long request sends.
  request(op, args = {}, onProgress = null) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.worker.postMessage({ id, op, ...args });
    });
  }

  // Whether a request is waiting for its answer.
  busy() {
    return this.pending.size > 0;
  }

  // A message that asks for no answer (`stop`).
  tell(op) {
    this.worker.postMessage({ op });
  }

  // Ends the worker at once, whatever it is doing, and starts a new one: what was asked of
  // it fails with `StoppedError`.
  end(why) {
    this.worker.terminate();
    const pending = [...this.pending.values()];
    this.pending.clear();
    this.start();
    for (const p of pending) p.reject(new StoppedError(why));
  }
}
