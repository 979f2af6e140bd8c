// How the runner talks to the server: HTTP steps as given, SQL steps through POST /sql?mode=raw or,
// with MysqlSqlClient (QUARRY_CONFORMANCE_TRANSPORT=mysql), over the MySQL protocol.
import { Agent, request } from 'node:http';
import { isLosslessNumber, parse, stringify } from 'lossless-json';
import mysql from 'mysql2/promise';
import { formatFloatSql } from '../../src/engine/values/cell-format.js';
import type { HttpStep } from './cases.js';

/** A request that takes longer than this fails its case (the server may be stuck). */
export const REQUEST_TIMEOUT_MS = 30_000;
/** Manticore answers nearly every SQL error with errno 1064; `/sql?mode=raw` does not carry it. */
export const ASSUMED_ERRNO = 1064;

export interface HttpOutcome {
  kind: 'http';
  status: number;
  /** Parsed JSON (numbers as LosslessNumber) when the body is JSON, else the text. */
  body: unknown;
}

/** A result set; `more` holds the statement's further result sets (one per FACET), when it has any. */
export type SqlOutcome =
  | { kind: 'rows'; columns: string[]; rows: (string | null)[][]; more?: { columns: string[]; rows: (string | null)[][] }[] }
  | { kind: 'ok'; affected: number }
  | { kind: 'error'; error: string; errno: number };

export type Outcome = HttpOutcome | SqlOutcome;

/** Sends SQL text and reports the result of its (first) statement as the MySQL protocol would. */
export interface SqlTransport {
  sql(text: string): Promise<SqlOutcome>;
}

/** A JSON body as lossless values, or the text when it is not JSON. */
export function parseBody(text: string): unknown {
  const t = text.trim();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      return parse(t);
    } catch {
      return text;
    }
  }
  return text;
}

/** A raw-mode cell as the text protocol sends it: floats as `%f`, integers exact, strings as is. */
export function rawCellToText(value: unknown, type: string): string | null {
  if (value === null || value === undefined) return null;
  if (isLosslessNumber(value)) return type === 'float' ? formatFloatSql(Number(value.toString())) : value.toString();
  if (typeof value === 'string') return value;
  return stringify(value) ?? null;
}

/** One object of a raw-mode reply array as a SQL outcome. */
export function rawResultToSql(item: Record<string, unknown>): SqlOutcome {
  const columns = item.columns as Record<string, { type: string }>[] | undefined;
  if (!columns) return { kind: 'ok', affected: Number(String(item.total ?? 0)) };
  const names = columns.map((c) => Object.keys(c)[0]!);
  const types = columns.map((c) => Object.values(c)[0]!.type);
  const data = (item.data as Record<string, unknown>[] | undefined) ?? [];
  return { kind: 'rows', columns: names, rows: data.map((row) => names.map((n, i) => rawCellToText(row[n], types[i]!))) };
}

/** A raw-mode HTTP reply (status and parsed body) as a SQL outcome. */
export function rawReplyToSql(status: number, body: unknown): SqlOutcome {
  if (Array.isArray(body) && body.length > 0) {
    const first = rawResultToSql(body[0] as Record<string, unknown>);
    const more = body.slice(1).map((b) => rawResultToSql(b as Record<string, unknown>));
    if (first.kind !== 'rows' || more.length === 0) return first;
    return { ...first, more: more.map((m) => (m.kind === 'rows' ? { columns: m.columns, rows: m.rows } : { columns: [], rows: [] })) };
  }
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'string') return { kind: 'error', error, errno: ASSUMED_ERRNO };
  return { kind: 'error', error: `unexpected reply (HTTP ${status}): ${String(stringify(body))}`, errno: 0 };
}

/** HTTP to one server over a single keep-alive connection, so session state (SHOW META) carries over. */
export class HttpClient implements SqlTransport {
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 1 });
  constructor(readonly host: string, readonly port: number) {}

  send(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<HttpOutcome> {
    return new Promise((resolve, reject) => {
      const req = request({ host: this.host, port: this.port, method, path, headers, agent: this.#agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ kind: 'http', status: res.statusCode ?? 0, body: parseBody(Buffer.concat(chunks).toString('utf8')) }),
        );
        res.on('error', reject);
      });
      req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no reply within ${REQUEST_TIMEOUT_MS} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  /** A case's HTTP step: JSON bodies serialized losslessly, strings verbatim, null for none. */
  http(step: HttpStep['http']): Promise<HttpOutcome> {
    const headers: Record<string, string> = { ...(step.headers ?? {}) };
    let body: string | undefined;
    if (typeof step.body === 'string') body = step.body;
    else if (step.body !== null && step.body !== undefined) {
      body = stringify(step.body) ?? '';
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
    }
    return this.send(step.method, step.path, body, headers);
  }

  async sql(text: string): Promise<SqlOutcome> {
    const reply = await this.send('POST', '/sql?mode=raw', text, { 'Content-Type': 'text/plain' });
    return rawReplyToSql(reply.status, reply.body);
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** A MySQL-protocol reply of mysql2 (results and fields of `query`) as a SQL outcome of its first statement. */
export function mysqlReplyToSql(res: unknown, fields: unknown): SqlOutcome {
  const multi = Array.isArray(fields) && fields.length > 0 && (Array.isArray(fields[0]) || fields[0] === undefined);
  const first = multi ? (res as unknown[])[0] : res;
  const cols = (multi ? (fields as unknown[])[0] : fields) as mysql.FieldPacket[] | undefined;
  if (!Array.isArray(first)) return { kind: 'ok', affected: (first as mysql.ResultSetHeader).affectedRows };
  const out: SqlOutcome = { kind: 'rows', columns: (cols ?? []).map((f) => f.name), rows: first as (string | null)[][] };
  // the further result sets of the one statement sent (FACET)
  const more = multi ? (res as unknown[]).slice(1).flatMap((r, i) => (Array.isArray(r)
    ? [{ columns: ((fields as unknown[])[i + 1] as mysql.FieldPacket[]).map((f) => f.name), rows: r as (string | null)[][] }] : [])) : [];
  return more.length ? { ...out, more } : out;
}

/**
 * HTTP steps as HttpClient sends them; SQL steps over one MySQL-protocol connection (one session,
 * as the keep-alive HTTP connection is), values as the text protocol sends them.
 */
export class MysqlSqlClient extends HttpClient {
  #conn?: Promise<mysql.Connection>;
  constructor(host: string, httpPort: number, readonly mysqlPort: number) {
    super(host, httpPort);
  }

  #connection(): Promise<mysql.Connection> {
    this.#conn ??= mysql.createConnection({
      host: this.host, port: this.mysqlPort, user: 'root', multipleStatements: true, connectTimeout: REQUEST_TIMEOUT_MS,
    });
    return this.#conn;
  }

  override async sql(text: string): Promise<SqlOutcome> {
    const conn = await this.#connection();
    try {
      const [res, fields] = await conn.query({
        sql: text, rowsAsArray: true, timeout: REQUEST_TIMEOUT_MS,
        typeCast: (field, next) => (field.type === 'NULL' ? next() : field.string()),
      });
      return mysqlReplyToSql(res, fields);
    } catch (e) {
      const err = e as { sqlMessage?: string; errno?: number; message?: string; fatal?: boolean };
      if (err.fatal) this.#conn = undefined; // the connection is gone: the next step opens a new one
      if (err.sqlMessage === undefined) throw e;
      return { kind: 'error', error: err.sqlMessage, errno: err.errno ?? 0 };
    }
  }

  override close(): void {
    super.close();
    void this.#conn?.then((c) => c.destroy(), () => undefined);
    this.#conn = undefined;
  }
}
