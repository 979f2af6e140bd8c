// bench/highlight/highlight-json-split.ts: the JSON `/search` + `highlight` request of bench/highlight/highlight-json.bench.ts
// (`--split 1`) taken apart on one build, so a class's CPU per request can be laid beside SQL HIGHLIGHT()'s
// part by part: the whole request (body parse, search, highlight, reply bytes), the request without its
// reply's render, the engine's search + highlight of a parsed body, the render alone (the replies kept,
// written again into one reused buffer as the lean server writes them), the request without `highlight`,
// and SQL's `SELECT id, HIGHLIGHT()` and `SELECT id, len` of the same queries (in process: no MySQL packets).
import { highlightSql, jsonSearch, searchSql } from './highlight-classes.js';

/**
 * One part: prepare(queries) does the per-class setup once and gives a pass over the queries, which
 * goes over them `repeat` times (a short synchronous pass sees no scheduler tick or switch, and the
 * thread's run time in /proc moves only at those).
 */
export interface SplitPart { name: string; repeat?: number; prepare(queries: string[]): Promise<() => Promise<void>> }

/** The render alone's passes per timed pass: about 10 us a reply, 20 replies. */
const RENDER_REPEAT = 50;

/** What the parts call, loaded from the build's dist/ (the bench loads two builds side by side). */
export interface SplitDeps {
  db: { sql(text: string): Promise<{ kind: string; message?: string }[]> };
  json: { search(body: unknown, session: unknown): Promise<unknown> };
  session: unknown;
  searchReply(json: unknown, session: unknown, text: string): Promise<{ status: number }>;
  replyBody(reply: unknown): Buffer;
  writeSearchJson(out: unknown, result: unknown): void;
  ByteSink: new (buffer: Buffer, start: number) => unknown;
  parseJsonText(text: string): unknown;
}

/** The lean server's room before the body in its reply buffer (src/http/lean/reply-bytes.ts HEAD_ROOM). */
const HEAD_ROOM = 512;

export function splitParts(d: SplitDeps): SplitPart[] {
  const each = (f: (q: string, i: number) => Promise<unknown>) => async (queries: string[]) => async () => {
    for (let i = 0; i < queries.length; i++) await f(queries[i]!, i);
  };
  const sql = (text: string) => async () => {
    const [r] = await d.db.sql(text);
    if (r?.kind !== 'rows') throw new Error(`${text}: ${r?.message ?? r?.kind}`);
  };
  return [
    { name: 'JSON request', prepare: each(async (q) => d.replyBody(await d.searchReply(d.json, d.session, jsonSearch(q)))) },
    { name: 'JSON request without render', prepare: each((q) => d.searchReply(d.json, d.session, jsonSearch(q))) },
    {
      name: 'JSON search + highlight (parsed body)',
      prepare: async (queries) => {
        const bodies = queries.map((q) => d.parseJsonText(jsonSearch(q)));
        return async () => { for (const b of bodies) await d.json.search(b, d.session); };
      },
    },
    {
      name: 'JSON render alone',
      repeat: RENDER_REPEAT,
      prepare: async (queries) => {
        const results: unknown[] = [];
        for (const q of queries) results.push(await d.json.search(d.parseJsonText(jsonSearch(q)), d.session));
        const buf = Buffer.allocUnsafe(1 << 16);
        return async () => {
          for (let k = 0; k < RENDER_REPEAT; k++) for (const r of results) d.writeSearchJson(new d.ByteSink(buf, HEAD_ROOM), r);
        };
      },
    },
    { name: 'JSON request without highlight', prepare: each(async (q) => d.replyBody(await d.searchReply(d.json, d.session, jsonSearch(q).replace(',"highlight":{}', '')))) },
    { name: 'SQL HIGHLIGHT()', prepare: each((q) => sql(highlightSql(q))()) },
    { name: 'SQL id, len', prepare: each((q) => sql(searchSql(q).replace('SELECT id', 'SELECT id, len'))()) },
  ];
}
