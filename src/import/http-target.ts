/** The import target over HTTP: a running server's `/sql?mode=raw` for the schema and `/bulk` for rows. */
import { stringify as losslessStringify } from 'lossless-json';
import { SearchError } from '../util/errors.js';
import { bulkStatement, type BulkOutcome, type ImportDoc, type ImportTarget, type RowBatch, type TargetColumn } from './target.js';
import { bulkLines } from './bulk-lines.js';

interface RawResult { error?: string; warning?: string; data?: Record<string, unknown>[] }

export class HttpTarget implements ImportTarget {
  readonly where: string;
  readonly #base: string;

  constructor(url: string) {
    this.#base = url.replace(/\/+$/, '');
    if (!/^https?:\/\//i.test(this.#base)) throw new SearchError('BAD_SETTING', `--url needs http://host:port, got '${url}'`);
    this.where = this.#base;
  }

  async #post(path: string, body: string, contentType: string): Promise<{ status: number; json: unknown }> {
    let res: Response;
    try {
      res = await fetch(this.#base + path, { method: 'POST', headers: { 'Content-Type': contentType }, body });
    } catch (e) {
      const cause = (e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message;
      throw new SearchError('INTERNAL', `cannot reach ${this.#base}: ${cause}`);
    }
    const text = await res.text();
    try {
      return { status: res.status, json: JSON.parse(text) as unknown };
    } catch {
      throw new SearchError('INTERNAL', `${this.#base}${path} answered HTTP ${res.status}: ${text.slice(0, 200)}`);
    }
  }

  async #raw(statement: string): Promise<RawResult> {
    const { json } = await this.#post('/sql?mode=raw', `query=${encodeURIComponent(statement)}`, 'application/x-www-form-urlencoded');
    const r = (Array.isArray(json) ? json[0] : json) as RawResult | undefined;
    return r ?? {};
  }

  async sql(statement: string): Promise<string | undefined> {
    const r = await this.#raw(statement);
    if (r.error) throw new SearchError('BAD_VALUE', r.error);
    return r.warning || undefined;
  }

  /** Runs `statement` and returns its rows; an error answer throws. */
  async rows(statement: string): Promise<Record<string, unknown>[]> {
    const r = await this.#raw(statement);
    if (r.error) throw new SearchError('BAD_VALUE', r.error);
    return r.data ?? [];
  }

  async describe(table: string): Promise<TargetColumn[] | undefined> {
    const r = await this.#raw(`DESCRIBE ${table}`);
    if (r.error || !r.data) return undefined;
    return r.data.map((row) => ({ name: String(row.Field), type: String(row.Type) }));
  }

  async tid(table: string): Promise<string | undefined> {
    const r = await this.#raw(`SHOW TABLE ${table} STATUS LIKE 'tid'`);
    return r.error ? undefined : r.data?.map((row) => String(row.Value))[0];
  }

  async bulk(table: string, docs: ImportDoc[], replace = false): Promise<BulkOutcome> {
    return this.#bulkBody(docs.map((d) => losslessStringify(bulkStatement(table, d, replace))).join('\n') + '\n');
  }

  async loadRows(table: string, batch: RowBatch, replace = false): Promise<BulkOutcome> {
    return this.#bulkBody(bulkLines(table, batch, replace));
  }

  async #bulkBody(body: string): Promise<BulkOutcome> {
    const { json } = await this.#post('/bulk', body, 'application/x-ndjson');
    const r = json as { errors?: boolean; error?: string; current_line?: number };
    if (!r.errors) return { ok: true };
    return { ok: false, failedIndex: (r.current_line ?? 1) - 1, error: r.error || 'bulk request failed' };
  }

  async close(): Promise<void> {}
}
