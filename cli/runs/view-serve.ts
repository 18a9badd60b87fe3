// The loopback server of `physvec view`: `/` is the index, rebuilt on every request (so a reload
// shows runs that ended since), `/files/…` the report folders under the state directory (reports/
// and campaigns/ only). No page of ours has a script, so every answer forbids scripts (CSP), and a
// file a run produced is never served as HTML: only report.html pages are.
import { createReadStream, promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { BadInputError } from '../../lib/errors.js';

const TYPES: Record<string, string> = {
  '.json': 'application/json', '.png': 'image/png', '.svg': 'image/svg+xml', '.csv': 'text/csv; charset=utf-8', '.pdf': 'application/pdf',
};
const SAFE_HEADERS = { 'Content-Security-Policy': "default-src 'self'; script-src 'none'; object-src 'none'", 'X-Content-Type-Options': 'nosniff' };
/** The folders under the state directory the server hands out. */
const SERVED = ['reports', 'campaigns'];

function typeOf(file: string): string {
  if (path.basename(file) === 'report.html') return 'text/html; charset=utf-8';
  return TYPES[path.extname(file).toLowerCase()] ?? 'text/plain; charset=utf-8';
}

/** The link to a file of the state directory, or a file:// URL for one outside the served folders. */
export function servedHref(root: string, file: string): string {
  const rel = path.relative(root, file).split(path.sep);
  if (rel[0] === '..' || !SERVED.includes(rel[0]!)) return `file://${file}`;
  return `/files/${rel.map(encodeURIComponent).join('/')}`;
}

async function sendFile(res: http.ServerResponse, root: string, urlPath: string): Promise<void> {
  const rel = decodeURIComponent(urlPath.slice('/files/'.length)).split('/').filter(Boolean);
  const file = path.join(root, ...rel);
  const inside = SERVED.some((d) => file.startsWith(path.join(root, d) + path.sep));
  const stat = inside && !rel.includes('..') ? await fs.stat(file).catch(() => null) : null;
  if (!stat?.isFile()) {
    res.writeHead(404, { ...SAFE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
    return;
  }
  res.writeHead(200, { ...SAFE_HEADERS, 'Content-Type': typeOf(file), 'Content-Length': stat.size });
  createReadStream(file).pipe(res);
}

/** Serves on 127.0.0.1:`port` (0: any free port) until SIGINT/SIGTERM; `onListening` gets the URL. */
export async function serveIndex(opts: { port: number; root: string; page: () => Promise<string>; onListening: (url: string) => void }): Promise<void> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const answer = url.pathname === '/' || url.pathname === '/index.html'
      ? opts.page().then((html) => void res.writeHead(200, { ...SAFE_HEADERS, 'Content-Type': 'text/html; charset=utf-8' }).end(html))
      : url.pathname.startsWith('/files/') ? sendFile(res, opts.root, url.pathname) : Promise.resolve(void res.writeHead(404, SAFE_HEADERS).end());
    answer.catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { ...SAFE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`physvec view: ${(err as Error)?.message ?? String(err)}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'EADDRINUSE' ? new BadInputError(`--port ${opts.port}: the port is in use on 127.0.0.1; pick another (--port 0 takes any free one)`, undefined, 'port') : err));
    server.listen(opts.port, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  opts.onListening(`http://127.0.0.1:${port}/`);
  await new Promise<void>((resolve) => {
    const stop = () => server.close(() => resolve());
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
