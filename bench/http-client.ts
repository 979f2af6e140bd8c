/**
 * The benchmarks' HTTP client: node:http over a keep-alive agent (undici's fetch costs the client more
 * CPU than the server uses), one request at a time per agent as a client holding one connection.
 */
import http from 'node:http';

export interface HttpReply { status: number; body: string }

/** A keep-alive agent with one socket: one benchmark client. */
export function clientAgent(): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: 1 });
}

/** POSTs `body` to `path` and resolves with the status and the whole reply text. */
export function postText(agent: http.Agent, port: number, path: string, body: string, contentType?: string): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const headers = contentType ? { 'Content-Type': contentType } : undefined;
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** As postText, but rejects unless the reply is 200 without an error (`"error":"..."`, `"errors":true`). */
export async function postOk(agent: http.Agent, port: number, path: string, body: string, contentType?: string): Promise<string> {
  const r = await postText(agent, port, path, body, contentType);
  if (r.status !== 200 || /"error":"[^"]|"errors":true|"error":\{/.test(r.body)) throw new Error(`quarry ${path}: ${r.status} ${r.body.slice(0, 300)}`);
  return r.body;
}

/** `/bulk` NDJSON body inserting `docs` into `table` (each line `{"insert":{"table",id,"doc"}}`). */
export function bulkBody(table: string, docs: { id: number; title: string; body: string }[]): string {
  let out = '';
  for (const d of docs) {
    out += `${JSON.stringify({ insert: { table, id: d.id, doc: { title: d.title, body: d.body, len: d.body.length } } })}\n`;
  }
  return out;
}
