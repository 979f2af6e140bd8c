// The shared frame of the no-silent-ignore tests (the rule of issue 13: no SELECT clause, OPTION or
// /search key the parsers accept is silently ignored): one quarry server with table `sw`, every SQL
// transport (MySQL, /sql?mode=raw, /sql, /cli_json, /cli) and /search as comparable answers, and the
// three verdicts: the answer changes, the statement is rejected naming the clause, or the answer is the same.
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, expect } from 'vitest';
import { startQuarry, type QuarryProcess } from '../mysql-server.js';

export type Answer = { error: string } | { ok: string };

let q: QuarryProcess;
let conn: mysql.Connection;
const base = (): string => `http://127.0.0.1:${q.httpPort}`;

async function post(path: string, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${base()}${path}`, { method: 'POST', body });
  return { status: res.status, text: await res.text() };
}

/** Answers with timings removed, so that the same result gives the same text. */
export const TRANSPORTS: Record<string, (sql: string) => Promise<Answer>> = {
  async mysql(sql) {
    try {
      const [rows] = await conn.query({ sql, rowsAsArray: true });
      return { ok: JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v)) };
    } catch (e) {
      return { error: (e as { sqlMessage?: string }).sqlMessage ?? String(e) };
    }
  },
  async raw(sql) {
    const r = await post('/sql?mode=raw', sql);
    const body = JSON.parse(r.text);
    if (!Array.isArray(body)) return { error: String(body.error) };
    if (body[0]?.error) return { error: String(body[0].error) };
    return { ok: JSON.stringify(body.map((x: Record<string, unknown>) => ({ ...x, time: undefined }))) };
  },
  async sql(sql) {
    if (!/^\s*select/i.test(sql)) return TRANSPORTS.raw!(sql);
    const r = await post('/sql', sql);
    const body = JSON.parse(r.text);
    if (body.error) return { error: typeof body.error === 'string' ? body.error : JSON.stringify(body.error) };
    return { ok: JSON.stringify({ ...body, took: undefined }) };
  },
  async cli_json(sql) {
    const r = await post('/cli_json', sql);
    const body = JSON.parse(r.text);
    if (!Array.isArray(body)) return { error: String(body.error) };
    if (body[0]?.error) return { error: String(body[0].error) };
    return { ok: JSON.stringify(body.map((x: Record<string, unknown>) => ({ ...x, time: undefined }))) };
  },
  async cli(sql) {
    const r = await post('/cli', sql);
    if (/^ERROR/m.test(r.text) || r.status >= 400) return { error: r.text };
    return { ok: r.text.replace(/\(\d+\.\d+ sec\)/g, '') };
  },
};

export async function search(body: unknown): Promise<Answer> {
  const r = await post('/search', JSON.stringify(body));
  const parsed = JSON.parse(r.text);
  if (parsed.error) return { error: typeof parsed.error === 'string' ? parsed.error : JSON.stringify(parsed.error) };
  return { ok: JSON.stringify({ ...parsed, took: undefined }) };
}

/** `variant` differs from `baseline` on every transport (both succeed). */
export async function expectChanges(baseline: string, variant: string): Promise<void> {
  for (const [name, run] of Object.entries(TRANSPORTS)) {
    const [a, b] = [await run(baseline), await run(variant)];
    expect(a, `${name}: ${baseline}`).toHaveProperty('ok');
    expect(b, `${name}: ${variant}`).toHaveProperty('ok');
    expect((b as { ok: string }).ok, `${name}: ${variant} vs ${baseline}`).not.toBe((a as { ok: string }).ok);
  }
}

/** `variant` fails on every transport with a message containing `needle`. */
export async function expectRejected(variant: string, needle: string): Promise<void> {
  for (const [name, run] of Object.entries(TRANSPORTS)) {
    const r = await run(variant);
    expect(r, `${name}: ${variant}`).toHaveProperty('error');
    expect((r as { error: string }).error.toLowerCase(), `${name}: ${variant}`).toContain(needle.toLowerCase());
  }
}

/** `variant` gives exactly the answer of `baseline` on every transport. */
export async function expectSame(baseline: string, variant: string): Promise<void> {
  for (const [name, run] of Object.entries(TRANSPORTS)) {
    const [a, b] = [await run(baseline), await run(variant)];
    expect(a, `${name}: ${baseline}`).toHaveProperty('ok');
    expect(b, `${name}: ${variant}`).toEqual(a);
  }
}

/** Starts the server and fills `sw` before a file's tests; stops it after them. */
export function useServer(): void {
  beforeAll(async () => {
    q = await startQuarry();
    conn = await mysql.createConnection({ host: '127.0.0.1', port: q.mysqlPort, user: 'root' });
    await q.sql("CREATE TABLE sw (title text, price float, cat uint) min_prefix_len='2'");
    await q.sql(`INSERT INTO sw (id, title, price, cat) VALUES (1, 'red apple', 10, 1), (2, 'green apple pie', 20, 1),
      (3, 'banana', 20, 2), (4, 'apricot jam', 5, 3), (5, 'apple apple apple', 7, 2)`);
  }, 60_000);
  afterAll(async () => {
    await conn?.end();
    await q?.stop();
  });
}

export const ALL = 'SELECT id, weight() FROM sw ORDER BY id ASC';
export const APPLE = "SELECT id, weight() FROM sw WHERE MATCH('apple') ORDER BY id ASC";
