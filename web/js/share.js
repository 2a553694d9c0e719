// A ruleset in a link: its UTF-8 bytes, deflated (the browser's own CompressionStream), in
// base64url, after `#r=`. Opening the link gives back the very same text.

// A link is a stranger's: what it inflates to is read only up to this many bytes (more than a
// ruleset may hold, RULESET_BYTES in src/base/limits.rs).
const MAX_BYTES = 2 << 20;

async function through(bytes, stream) {
  const reader = new Blob([bytes]).stream().pipeThrough(stream).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_BYTES) {
      await reader.cancel();
      throw new Error('too big for a ruleset');
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function toBase64Url(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const b64 = text.replaceAll('-', '+').replaceAll('_', '/');
  const s = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return bytes;
}

export async function encode(text) {
  const packed = await through(new TextEncoder().encode(text), new CompressionStream('deflate-raw'));
  return `r=${toBase64Url(packed)}`;
}

// What a fragment carries: `null` when it is no share link, `{ text }` for a link read, or
// `{ broken }` (why it cannot be read) for a link that is cut, altered or not a ruleset.
export async function decode(fragment) {
  if (!/^#?r=/.test(fragment)) return null;
  const m = /^#?r=([A-Za-z0-9_-]*)$/.exec(fragment);
  if (!m) return { broken: 'it holds characters a share link never has' };
  let bytes;
  try {
    bytes = fromBase64Url(m[1]);
  } catch {
    return { broken: 'it is not in the form a share link has' };
  }
  let inflated;
  try {
    inflated = await through(bytes, new DecompressionStream('deflate-raw'));
  } catch (e) {
    return { broken: /too big/.test(String(e)) ? 'it unpacks to more than a ruleset may hold' : 'it is cut short or altered' };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(inflated) };
  } catch {
    return { broken: 'what it holds is not text' };
  }
}
