// `/search` replies over real HTTP through the lean server: stored text of every escaping class (quotes,
// backslashes, controls, DEL, Latin-1, line separators, astral and lone surrogates) comes back in
// `_source` exactly as the general serializer, JSON.stringify, writes it, and as it was stored.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { newSession } from '../../../src/engine/index.js';
import { createFastPath } from '../../../src/http/fast-path.js';
import { installLeanServer } from '../../../src/http/lean/lean-server.js';
import { socketSessions } from '../../../src/http/socket-sessions.js';
import { useTempEngine } from '../../helpers/temp-engine.js';

const MAX_BODY = 1 << 20;
const t = useTempEngine('render-search-http');
let server: Server;
let port = 0;
/** Requests the lean server answered: the replies under test come from its path. */
let leanAnswered = 0;
const internalErrors: unknown[] = [];
/** String#toWellFormed (Node 20; not in the compiler's lib yet). */
const wellFormed = (s: string): string => (s as unknown as { toWellFormed(): string }).toWellFormed();

async function start(): Promise<void> {
  const sessions = socketSessions();
  const onInternalError = (e: unknown) => { internalErrors.push(e); };
  const fast = createFastPath({ engine: t.engine, maxBodyBytes: MAX_BODY, sessions, onInternalError });
  server = createServer((req, res) => { if (!fast(req, res)) res.writeHead(404).end(); });
  installLeanServer(server, {
    engine: t.engine, maxBodyBytes: MAX_BODY, sessions, onInternalError, maxHeadBytes: 16384,
    onRequest: () => { leanAnswered++; return () => undefined; },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
}

function post(path: string, body: string, type = 'application/json'): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, headers: { 'Content-Type': type } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// Code units where escaping decisions change, and a word every text holds so that one query finds them all.
const UNITS = [0, 8, 9, 10, 13, 0x1f, 0x20, 0x22, 0x2f, 0x5c, 0x7f, 0xe9, 0x2028, 0x2029, 0xd800, 0xdc00, 0xfffd, 0xffff];
const unit = fc.oneof(fc.constantFrom(...UNITS), fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0x61, max: 0x7a }));
const text = fc.array(unit, { maxLength: 60 }).map((us) => `${String.fromCharCode(...us)} zebra ${String.fromCharCode(...us.reverse())}`);
const pair = fc.tuple(text, fc.constantFrom('', '"', '\\', '\\"', '"\\"'));

it('writes _source text byte for byte as JSON.stringify, whatever the text holds', async () => {
  await start();
  try {
    const s = newSession();
    await t.engine.execute('CREATE TABLE t (title text, body text, n bigint)', s);
    // well-formed texts: a lone surrogate's escape (\ud800) is a body searchd's cJSON refuses (cjson-parse.ts)
    const docs = fc.sample(pair, { numRuns: 120, seed: 7 }).map(([title, mark], i) => ({ id: i + 1, title: wellFormed(title), body: `${mark}zebra${mark}` }));
    // the smallest 64-bit integer as the attribute: the reply's number must stay exact
    const lines = docs.map((d) => JSON.stringify({ insert: { table: 't', id: d.id, doc: { title: d.title, body: d.body, n: 0 } } }).replace('"n":0', '"n":-9223372036854775808'));
    expect(await post('/bulk', `${lines.join('\n')}\n`, 'application/x-ndjson')).toContain('"errors":false');
    const before = leanAnswered;
    const reply = await post('/search', '{"table":"t","query":{"match":{"*":"zebra"}},"limit":1000}');
    expect(leanAnswered).toBe(before + 1);
    const parsed = JSON.parse(reply) as { hits: { total: number; hits: Array<{ _id: number; _source: { title: string; body: string } }> } };
    expect(parsed.hits.total).toBe(docs.length);
    // the whole reply is the canonical serialization of its own value: every escape as JSON.stringify's
    // (the 64-bit attribute, which JSON.parse cannot hold, checked as text)
    expect(reply.split('"n":-9223372036854775808').length - 1).toBe(docs.length);
    const exact = reply.replaceAll('"n":-9223372036854775808', '"n":0');
    expect(JSON.stringify(JSON.parse(exact))).toBe(exact);
    for (const hit of parsed.hits.hits) {
      const doc = docs[hit._id - 1]!;
      // text as stored: lone surrogates cannot be UTF-8 and are stored as U+FFFD
      expect(hit._source.title).toBe(wellFormed(doc.title));
      expect(hit._source.body).toBe(doc.body);
    }
    expect(internalErrors).toEqual([]);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

it('writes a hit again after an UPDATE with its new attribute, and a _source filter with its own fields', async () => {
  await start();
  try {
    const s = newSession();
    await t.engine.execute('CREATE TABLE u (title text, body text, n bigint, tag string attribute)', s);
    await t.engine.execute(`INSERT INTO u (id, title, body, n, tag) VALUES (1, 'zebra', '${'a long body of text '.repeat(4)}', 5, 'red')`, s);
    const search = async (extra = '') => JSON.parse(await post('/search', `{"table":"u","query":{"match":{"*":"zebra"}}${extra}}`)).hits.hits[0]._source;
    const first = await search();
    // the second render keeps the document's _source whole, the third writes it from there
    for (let i = 0; i < 2; i++) expect(await search()).toEqual(first);
    expect(first).toMatchObject({ n: 5, tag: 'red' });
    await t.engine.execute("UPDATE u SET n = 6, tag = 'blue' WHERE id = 1", s);
    expect(await search()).toMatchObject({ title: 'zebra', n: 6, tag: 'blue' });
    expect(await search(',"_source":["n"]')).toEqual({ n: 6 });
    expect(await search()).toEqual({ ...first, n: 6, tag: 'blue' });
    expect(internalErrors).toEqual([]);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});
