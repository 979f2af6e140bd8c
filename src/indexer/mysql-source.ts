/**
 * The `mysql` source type, as Sphinx's indexer runs it: connect (sql_host, sql_port, sql_user,
 * sql_pass, sql_db, sql_sock), run each sql_query_pre, then sql_query, either once or, with
 * sql_query_range, once per step of sql_range_step ids (default 1024) with $start and $end replaced;
 * then sql_query_post, and sql_query_post_index ($maxid) after a successful build. The first result
 * column is the document id; columns named by sql_attr_* are attributes, sql_field_string both, every
 * other column a full-text field. sql_attr_multi takes its values `from field` (a "1,2,3" column) or
 * `from query` (id, value rows).
 */
import type { Connection, FieldPacket } from 'mysql2';
import { lastValue, type ConfigSection } from '../server/config-parser.js';
import type { SourceColumn, SourceColumnType } from './source-schema.js';
import type { RowSource, SourceEvent, SourceRow } from './source.js';

export const DEFAULT_RANGE_STEP = 1024;
const ROWS_PER_EVENT = 1000;
const SQL_ATTR_TYPES: Record<string, SourceColumnType> = {
  sql_attr_uint: 'uint', sql_attr_bigint: 'bigint', sql_attr_timestamp: 'timestamp', sql_attr_bool: 'bool',
  sql_attr_float: 'float', sql_attr_string: 'string', sql_attr_json: 'json',
};

interface MultiAttr { name: string; type: 'multi' | 'multi_64'; query?: string }

/** `uint tag from field` / `bigint tag from query; SELECT id, tag FROM t`. */
export function parseSqlAttrMulti(value: string): MultiAttr {
  const m = /^\s*(uint|bigint|timestamp)\s+(\w+)\s+from\s+(field|query|ranged-query|ranged-main-query)\s*;?\s*([\s\S]*)$/i.exec(value);
  if (!m) throw new Error(`sql_attr_multi: cannot read '${value}' (expected: uint|bigint NAME from field|query; SQL)`);
  const how = m[3]!.toLowerCase();
  if (how !== 'field' && how !== 'query') throw new Error(`sql_attr_multi: '${how}' is not supported (from field, from query are)`);
  const name = m[2]!.toLowerCase();
  const type = m[1]!.toLowerCase() === 'bigint' ? 'multi_64' : 'multi';
  if (how === 'query' && !m[4]!.trim()) throw new Error(`sql_attr_multi ${name}: from query needs the query after ';'`);
  return { name, type, query: how === 'query' ? m[4]!.trim() : undefined };
}

/** A result value as text: NULL empty, dates as unix seconds, binary as UTF-8, JSON as JSON text. */
function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return String(Math.floor(v.getTime() / 1000));
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  if (typeof v === 'object') return JSON.stringify(v); // a JSON column, which mysql2 parses
  return String(v);
}

export class MysqlSource implements RowSource {
  readonly #section: ConfigSection;
  #conn?: Connection;
  #maxId = 0n;
  /** sql_query_range's ids (min, max - min + 1) and the step being read; undefined for an unranged query. */
  #range?: { min: bigint; span: bigint; start: bigint; end: bigint };
  /** The id of the last row read, and whether every step has been read. */
  #lastId = 0n;
  #finished = false;

  constructor(section: ConfigSection) {
    this.#section = section;
    if (!lastValue(section, 'sql_query')) throw new Error('mysql source needs sql_query');
  }

  bytesRead(): number {
    return 0;
  }

  /**
   * The share of the id range below the last row read, kept within the step being read (a step's rows
   * may come in any order): ids, not rows, so a sparse range counts its gaps too.
   */
  done(): number | undefined {
    const r = this.#range;
    if (!r) return undefined;
    if (this.#finished) return 1;
    const below = this.#lastId >= r.start && this.#lastId <= r.end ? this.#lastId + 1n : r.start;
    const share = Number(((below - r.min) * 10_000n) / r.span) / 10_000;
    return Math.min(1, share);
  }

  async #connect(): Promise<Connection> {
    const { createConnection } = await import('mysql2');
    const s = this.#section;
    const conn = createConnection({
      host: lastValue(s, 'sql_host') ?? 'localhost', port: Number(lastValue(s, 'sql_port') ?? 3306),
      user: lastValue(s, 'sql_user'), password: lastValue(s, 'sql_pass'), database: lastValue(s, 'sql_db'),
      socketPath: lastValue(s, 'sql_sock'), supportBigNumbers: true, bigNumberStrings: true, multipleStatements: false,
    });
    await new Promise<void>((res, rej) => conn.connect((e) => (e ? rej(new Error(`mysql source: cannot connect: ${e.message}`)) : res())));
    return conn;
  }

  #query(sql: string): Promise<unknown[][]> {
    return new Promise((res, rej) => this.#conn!.query({ sql, rowsAsArray: true }, (e, rows) => {
      if (e) rej(new Error(`mysql source: ${e.message} (query: ${sql.slice(0, 200)})`));
      else res(Array.isArray(rows) ? (rows as unknown[][]) : []);
    }));
  }

  /** Streams one query's rows (bounded memory), calling `onFields` before the first row. */
  async *#stream(sql: string, onFields: (f: FieldPacket[]) => void): AsyncGenerator<unknown[]> {
    const q = this.#conn!.query({ sql, rowsAsArray: true });
    q.on('fields', (f: FieldPacket[]) => onFields(f));
    try {
      for await (const row of q.stream({ highWaterMark: ROWS_PER_EVENT }) as AsyncIterable<unknown[]>) yield row;
    } catch (e) {
      throw new Error(`mysql source: ${(e as Error).message} (query: ${sql.slice(0, 200)})`);
    }
  }

  /** The schema of the result columns `names` (after the id). */
  #columns(names: string[], multis: MultiAttr[]): SourceColumn[] {
    const s = this.#section;
    const declared = new Map<string, SourceColumnType>();
    for (const e of s.entries((k) => k in SQL_ATTR_TYPES || k === 'sql_field_string')) {
      declared.set(e.value.split(':')[0]!.trim().toLowerCase(), e.key === 'sql_field_string' ? 'field_string' : SQL_ATTR_TYPES[e.key]!);
    }
    for (const m of multis) if (!m.query) declared.set(m.name, m.type);
    const cols: SourceColumn[] = names.map((n) => ({ name: n.toLowerCase(), type: declared.get(n.toLowerCase()) ?? 'field' }));
    for (const m of multis) if (m.query) cols.push({ name: m.name, type: m.type });
    return cols;
  }

  /** sql_attr_multi ... from query: id -> values, read before the main query. */
  async #multiValues(multis: MultiAttr[]): Promise<Map<string, string[]>[]> {
    return Promise.all(multis.filter((m) => m.query).map(async (m) => {
      const byId = new Map<string, string[]>();
      for (const [id, v] of await this.#query(m.query!)) {
        const k = text(id);
        const list = byId.get(k) ?? [];
        list.push(text(v));
        byId.set(k, list);
      }
      return byId;
    }));
  }

  async *events(): AsyncGenerator<SourceEvent> {
    const s = this.#section;
    this.#conn = await this.#connect();
    try {
      for (const pre of s.get('sql_query_pre') ?? []) await this.#query(pre);
      const multis = (s.get('sql_attr_multi') ?? []).map(parseSqlAttrMulti);
      const fromQuery = await this.#multiValues(multis);
      const main = lastValue(s, 'sql_query')!;
      let schemaSent = false;
      let rowNo = 0;
      let rows: SourceRow[] = [];
      for await (const sql of this.#queries(main)) {
        let fields: string[] | undefined;
        for await (const r of this.#stream(sql, (f) => { fields = f.map((x) => x.name); })) {
          if (!schemaSent) {
            schemaSent = true;
            yield { kind: 'schema', columns: this.#columns(fields!.slice(1), multis) };
          }
          const values = r.map(text);
          for (const m of fromQuery) values.push((m.get(values[0]!) ?? []).join(','));
          const id = values[0]!;
          if (/^\d+$/.test(id)) {
            const big = BigInt(id);
            if (big > this.#maxId) this.#maxId = big;
            this.#lastId = big;
          }
          rows.push({ line: ++rowNo, values });
          if (rows.length >= ROWS_PER_EVENT) { yield { kind: 'rows', rows }; rows = []; }
        }
        if (!schemaSent && fields) {
          schemaSent = true;
          yield { kind: 'schema', columns: this.#columns(fields.slice(1), multis) };
        }
      }
      if (rows.length) yield { kind: 'rows', rows };
      if (!schemaSent) throw new Error('mysql source: sql_query returned no result set');
      for (const post of s.get('sql_query_post') ?? []) await this.#query(post);
    } finally {
      this.#conn.end();
    }
  }

  /** After the table is in place: sql_query_post_index with $maxid, on a fresh connection. */
  async afterBuild(): Promise<void> {
    const posts = this.#section.get('sql_query_post_index') ?? [];
    if (posts.length === 0) return;
    this.#conn = await this.#connect();
    try {
      for (const p of posts) await this.#query(p.replace(/\$maxid/g, String(this.#maxId)));
    } finally {
      this.#conn.end();
    }
  }

  /** The main query, or one per step of the range, each made when the one before has been read. */
  async *#queries(main: string): AsyncGenerator<string> {
    const rangeSql = lastValue(this.#section, 'sql_query_range');
    if (!rangeSql) {
      if (/\$(start|end)\b/.test(main)) throw new Error('sql_query uses $start/$end but sql_query_range is not set');
      yield main;
      return;
    }
    const step = Number(lastValue(this.#section, 'sql_range_step') ?? DEFAULT_RANGE_STEP);
    if (!Number.isInteger(step) || step < 1) throw new Error(`sql_range_step must be a positive integer`);
    const [range] = await this.#query(rangeSql);
    if (!range || range.length < 2) throw new Error('sql_query_range must return two columns (min, max)');
    // an empty table: one empty range still gives the result's columns
    if (range[0] === null || range[1] === null) {
      yield main.replace(/\$start\b/g, '1').replace(/\$end\b/g, '0');
      return;
    }
    const min = BigInt(text(range[0]));
    const max = BigInt(text(range[1]));
    for (const [start, end] of rangeSteps(min, max, BigInt(step))) {
      this.#range = { min, span: max - min + 1n, start, end };
      yield main.replace(/\$start\b/g, String(start)).replace(/\$end\b/g, String(end));
    }
    this.#finished = true;
  }
}

/**
 * The [$start, $end] pairs of a ranged query, one at a time: a sparse id range (ids 1 and 10^15) is
 * billions of steps, which the source once built as one array of queries before the first ran, and the
 * indexer died out of memory; Sphinx's indexer also walks every step, one query each.
 */
export function* rangeSteps(min: bigint, max: bigint, step: bigint): Generator<[bigint, bigint]> {
  for (let start = min; start <= max; start += step) yield [start, start + step - 1n];
}
