// The user's work in the browser's storage, never thrown away unasked: each piece of work (a
// ruleset being written) has its own slot, and each tab works on its own piece.
//
// - `ninety-playground-text` holds the first piece of work (its id is `main`); every other
//   piece is `ninety-playground-text:ID`. `ninety-playground-work` lists them (id, title, when
//   last changed), and `ninety-playground-last` names the one changed last.
// - A tab remembers its piece in sessionStorage, so a reload opens it again; it holds a Web
//   Lock named after it while open, so a second tab that would open the same piece works on a
//   copy instead, and two tabs never write over each other.
// - A share link, an example picked over edited text, a new variant: each opens as a new
//   piece; the text that was there stays in its slot, listed under "your work".

const PREFIX = 'ninety-playground-text';
const INDEX = 'ninety-playground-work';
const LAST = 'ninety-playground-last';
const TAB = 'ninety-playground-tab';
const LOCK = 'ninety-playground-work:';

function slot(id) {
  return id === 'main' ? PREFIX : `${PREFIX}:${id}`;
}

function readIndex() {
  try {
    const list = JSON.parse(localStorage.getItem(INDEX) ?? '[]');
    return Array.isArray(list) ? list.filter((w) => w && typeof w.id === 'string') : [];
  } catch {
    return [];
  }
}

function writeIndex(list) {
  try {
    localStorage.setItem(INDEX, JSON.stringify(list));
  } catch {
    // Storage full or refused: the list is rebuilt from the slots.
  }
}

// A ruleset's title: its `name "..."` line, else its first line.
export function titleOf(text) {
  const m = /^\s*name\s+"([^"\n]*)"/m.exec(text);
  if (m) return m[1];
  const first = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return first.trim().slice(0, 40) || '(empty)';
}

export function read(id) {
  try {
    return localStorage.getItem(slot(id));
  } catch {
    return null;
  }
}

// Every piece of work stored: the index, and any slot it misses (written by an older page).
export function list() {
  const known = readIndex();
  const ids = new Set(known.map((w) => w.id));
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key === PREFIX && !ids.has('main')) known.push({ id: 'main', title: titleOf(localStorage.getItem(key)), at: 0 });
      else if (key?.startsWith(`${PREFIX}:`) && !ids.has(key.slice(PREFIX.length + 1))) {
        known.push({ id: key.slice(PREFIX.length + 1), title: titleOf(localStorage.getItem(key)), at: 0 });
      }
    }
  } catch {
    // No storage: nothing listed.
  }
  return known.filter((w) => read(w.id) !== null).sort((a, b) => b.at - a.at);
}

// Writes a piece of work; false when the browser refused (storage full or off).
export function write(id, text) {
  try {
    localStorage.setItem(slot(id), text);
    localStorage.setItem(LAST, id);
  } catch {
    return false;
  }
  const index = readIndex().filter((w) => w.id !== id);
  index.push({ id, title: titleOf(text), at: Date.now() });
  writeIndex(index);
  return true;
}

export function remove(id) {
  try {
    localStorage.removeItem(slot(id));
  } catch {
    // Nothing to remove.
  }
  writeIndex(readIndex().filter((w) => w.id !== id));
}

export function newId() {
  return `w${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

export function lastId() {
  try {
    return localStorage.getItem(LAST);
  } catch {
    return null;
  }
}

export function tabId() {
  try {
    return sessionStorage.getItem(TAB);
  } catch {
    return null;
  }
}

function setTabId(id) {
  try {
    sessionStorage.setItem(TAB, id);
  } catch {
    // A tab without session storage opens the last work again after a reload.
  }
}

// ---- which tab holds which piece ----

// The lock of this tab's piece, released to take another.
let release = null;
// Without Web Locks (a page not served from a secure origin), tabs say on a channel which
// pieces they hold.
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('ninety-playground') : null;
let mine = null;
if (channel) {
  channel.onmessage = (e) => {
    if (e.data?.who && mine) channel.postMessage({ holds: mine, to: e.data.who });
  };
}
const locks = typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null;

// Takes the lock of piece `id`, waiting up to `waitMs` for it (a reloaded tab's own lock may
// not be released yet); false when another tab holds it.
async function take(id, waitMs) {
  if (!locks) {
    const others = await heldElsewhere();
    if (others.has(id)) return false;
    mine = id;
    return true;
  }
  const deadline = Date.now() + waitMs;
  for (;;) {
    const got = await new Promise((resolve) => {
      locks
        .request(LOCK + id, { ifAvailable: true }, (lock) => {
          if (!lock) {
            resolve(false);
            return undefined;
          }
          resolve(true);
          return new Promise((r) => {
            release = r;
          });
        })
        .catch(() => resolve(false));
    });
    if (got) {
      mine = id;
      return true;
    }
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function letGo() {
  if (release) release();
  release = null;
  mine = null;
}

// The pieces other tabs hold (without Web Locks: those that answer on the channel in time).
async function heldElsewhere() {
  if (locks) {
    const state = await locks.query();
    return new Set((state.held ?? []).map((l) => l.name).filter((n) => n?.startsWith(LOCK)).map((n) => n.slice(LOCK.length)));
  }
  if (!channel) return new Set();
  const me = newId();
  const seen = new Set();
  const listen = (e) => {
    if (e.data?.to === me && e.data.holds) seen.add(e.data.holds);
  };
  channel.addEventListener('message', listen);
  channel.postMessage({ who: me });
  await new Promise((r) => setTimeout(r, 150));
  channel.removeEventListener('message', listen);
  return seen;
}

// This tab now works on piece `id` (false when another tab holds it).
export async function claim(id, waitMs = 0) {
  if (mine === id) return true;
  const before = mine;
  letGo();
  if (await take(id, waitMs)) {
    setTabId(id);
    return true;
  }
  if (before) await take(before, 0);
  return false;
}

export async function isHeldElsewhere(id) {
  if (id === mine) return false;
  return (await heldElsewhere()).has(id);
}
