// A tiny static server for the playground: `node web/serve.mjs [FOLDER] [PORT]` (what
// `cargo xtask serve` runs), and the browser tests' server. It serves only files inside the
// folder, on 127.0.0.1, with the MIME types a browser needs (`application/wasm` above all),
// and answers a malformed request with an error rather than stopping.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};

// The file a request's path names inside `root`, or the status that answers it instead: 400
// for a path that is no path (a malformed escape, a NUL), 403 for one that leads outside.
export function locate(root, requestUrl) {
  let rel;
  try {
    rel = decodeURIComponent(new URL(requestUrl ?? '/', 'http://localhost').pathname);
  } catch {
    return { status: 400 };
  }
  if (rel.includes('\0')) return { status: 400 };
  if (rel.endsWith('/')) rel += 'index.html';
  const file = path.resolve(root, `.${rel}`);
  if (!file.startsWith(root + path.sep)) return { status: 403 };
  return { file };
}

const WORDS = { 400: 'bad request', 403: 'forbidden', 404: 'not found', 405: 'method not allowed' };

function refuse(res, status) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(WORDS[status] ?? 'error');
}

// Serves `folder`; no request, however malformed, stops the server: each is answered (400,
// 403, 404, 405) and the next one served.
export function serve(folder, port = 0) {
  const root = path.resolve(folder);
  const server = http.createServer((req, res) => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        refuse(res, 405);
        return;
      }
      const { file, status } = locate(root, req.url);
      if (status) {
        refuse(res, status);
        return;
      }
      fs.readFile(file, (err, data) => {
        if (err) {
          refuse(res, 404);
          return;
        }
        res.writeHead(200, {
          'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-store',
        });
        res.end(req.method === 'HEAD' ? undefined : data);
      });
    } catch {
      if (!res.headersSent) refuse(res, 400);
      else res.destroy();
    }
  });
  // A request that is not HTTP at all: answered 400, the connection closed.
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const folder = process.argv[2] ?? path.join(here, 'dist');
  const port = Number(process.argv[3] ?? 8099);
  const server = await serve(folder, port);
  console.log(`the playground: http://127.0.0.1:${server.address().port}/ (Ctrl-C stops)`);
}
