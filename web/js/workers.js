// The page's two workers, each one instance of the wasm module: `engine` (check, hover,
// completion, the game) and `sim` (simulations, so a long run never delays a check). A panic
// in Rust poisons its instance: the worker is ended at once, a new one started, and the page
// told, so the next action works.

export class PanicError extends Error {}

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

  request(op, args = {}) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, ...args });
    });
  }
}
