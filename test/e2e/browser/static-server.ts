/** A tiny static file server on loopback for browser tests: a folder plus in-memory pages, no CORS or isolation headers. */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json',
};

export interface StaticServer { url: string; close(): Promise<void>; requests: { path: string; bytes: number }[] }

export async function serveFolder(dir: string, pages: Record<string, string> = {}): Promise<StaticServer> {
  const requests: { path: string; bytes: number }[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const send = (body: string | Buffer) => {
      requests.push({ path, bytes: Buffer.byteLength(body) });
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
      res.end(body);
    };
    if (pages[path] !== undefined) { send(pages[path]); return; }
    const file = normalize(join(dir, path));
    if (!file.startsWith(dir)) { res.writeHead(403).end(); return; }
    readFile(file).then(send, () => { res.writeHead(404).end('not found'); });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
