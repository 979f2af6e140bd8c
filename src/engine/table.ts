/**
 * One table: its schema, text pipeline and RT index, written through the store of record.
 * Every write runs under the table's mutex: validate and tokenize first (nothing is applied on error),
 * build the index's segment (all that can fail there) before the durable store commit, or, for new
 * rows, while it runs (a failed build then deletes the stored rows again: overlapped-commit.ts), then
 * make the segment visible (which cannot fail). A write is acknowledged only after both; a write that
 * fails leaves nothing, neither in the store nor in the index.
 */
import { pairSettings } from '../index/segment/segment-pairs.js';
import { fieldLengthName, type Column, type TableSchema } from '../schema/types.js';
import type { AttrValue, DocInput, FieldTokens, IndexSchema, SearchRequest, SearchResult } from '../index/types.js';
import type { PreparedBatch, RtIndex } from '../index/rt-index.js';
import { builtOrUndone, startOverlapped, type Built, type Overlapped } from './transaction/overlapped-commit.js';
import type { BuiltSegment } from '../index/segment/segment-builder.js';
import type { TextPipeline } from '../text/text-pipeline.js';
import { SearchError } from '../util/errors.js';
import { Mutex } from '../util/mutex.js';
import { indexedField } from './field-input.js';
import { TextRow } from './text-row.js';
import { attrValue, defaultAttr, textValue, valueError } from './values/coerce.js';
import { nulledJson } from './json/json-syntax-error.js';
import type { Literal } from './values/literal.js';
import type { StoredDoc, TableStore, WriteOp } from './durability/table-store.js';
import { mapPacked } from '../util/packed-map.js';
import { lockedForChange, lockedForInsert } from './exec/table-locks.js';
import { phase } from '../util/phase-trace.js';

/** One row of an INSERT/REPLACE: the id (undefined or 0 = generate) and values by column name. */
export interface RowInput {
  id?: bigint;
  values: Map<string, Literal>;
}

export function indexSchemaOf(schema: TableSchema): IndexSchema {
  return {
    fields: schema.columns.filter((c) => c.indexed && (c.type === 'text' || c.type === 'string')).map((c) => c.name),
    attrs: schema.columns.filter((c) => c.type !== 'text').map((c) => ({ name: c.name, type: c.type })),
    pairs: pairSettings(schema.settings),
  };
}

export class Table {
  readonly mutex = new Mutex();
  /**
   * Read locks of LOCK TABLES t READ held on this table by MySQL sessions (searchd's ReadTableLock_c):
   * while any is held every write fails, the locking session's own too (exec/table-locks.ts).
   */
  readLocks = 0;
  #columns = new Map<string, Column>();
  #schema!: TableSchema;
  /** The table has index_field_lengths' token-count attributes. */
  #tokenCounts = false;

  constructor(
    schema: TableSchema,
    public pipeline: TextPipeline,
    public index: RtIndex,
    readonly store: TableStore,
  ) {
    this.schema = schema;
  }

  get schema(): TableSchema { return this.#schema; }

  set schema(schema: TableSchema) {
    this.#schema = schema;
    this.#columns = new Map(schema.columns.map((c) => [c.name.toLowerCase(), c]));
    this.#tokenCounts = schema.columns.some((c) => c.tokenCount);
  }

  get name(): string { return this.schema.name; }

  column(name: string): Column | undefined { return this.#columns.get(name.toLowerCase()); }

  /** The stored document for a row: every column's value, text fields as strings. */
  #storedDoc(row: RowInput, rowNo: number, colNos: ReadonlyMap<string, number>): StoredDoc {
    return this.storedDocOf((col) => row.values.get(col.name.toLowerCase()), rowNo, (col) => colNos.get(col.name.toLowerCase()) ?? 0);
  }

  /**
   * The stored document of one row: each schema column's value from `literal` (undefined: the
   * column's default). A value that does not fit throws `row rowNo, column colNo(col): ...`.
   */
  storedDocOf(literal: (col: Column, i: number) => Literal | undefined, rowNo: number, colNo: (col: Column) => number): StoredDoc {
    const doc: StoredDoc = {};
    const columns = this.schema.columns;
    for (let i = 0; i < columns.length; i++) {
      const col = columns[i];
      const lit = literal(col, i);
      if (!lit) { doc[col.name] = col.type === 'text' ? '' : defaultAttr(col); continue; }
      try {
        doc[col.name] = col.type === 'text' ? textValue(lit) : attrValue(lit, col);
      } catch (e) {
        // JSON searchd's grammar refuses is stored as NULL with a warning (json-syntax-error.ts)
        if (e instanceof SearchError && col.type === 'json' && nulledJson(lit)) { doc[col.name] = null; continue; }
        if (e instanceof SearchError) throw valueError(rowNo, colNo(col), e.message);
        throw e;
      }
    }
    return doc;
  }

  /** A field's index input; with exact words on, plus the unstemmed `=word` forms. */
  #indexField(text: string): FieldTokens {
    return indexedField(this.pipeline, this.schema.settings, text);
  }

  /**
   * What the index gets for a stored document. index_field_lengths' attributes always take the
   * fields' token counts (a value given for them is overwritten, as Manticore's indexer does):
   * the positions that carry a word, as Manticore's accumulator counts them (no stopwords, one
   * per position whatever the forms indexed there).
   */
  docInput(docId: bigint, doc: StoredDoc): DocInput {
    const ix = this.index.schema;
    const fields = ix.fields.map((f) => this.#indexField(String(doc[f] ?? '')));
    const attrs = ix.attrs.map((a) => (doc[a.name] ?? null) as AttrValue);
    if (this.#tokenCounts) {
      const lengths = new Map(ix.fields.map((f, i) => [fieldLengthName(f).toLowerCase(), new Set(fields[i].positions).size]));
      ix.attrs.forEach((a, i) => { if (this.column(a.name)?.tokenCount) attrs[i] = lengths.get(a.name.toLowerCase()) ?? 0; });
    }
    return { docId, fields, attrs };
  }

  /** docInput's row with its fields' texts, tokenized later (text-row.ts). */
  #textRow(docId: bigint, doc: StoredDoc): DocInput {
    const ix = this.index.schema;
    // packed in every tier (util/packed-map.ts): the RAM tail's optimized readers of a row's texts see one map
    const attrs = mapPacked(ix.attrs, (a) => (doc[a.name] ?? null) as AttrValue);
    return new TextRow(docId, mapPacked(ix.fields, (f) => String(doc[f] ?? '')), attrs, this.pipeline, this.schema.settings);
  }

  /**
   * Validates rows and turns them into stored documents and index inputs. Throws before anything
   * is written. `colNos` gives each column's 1-based position in the statement, for error texts.
   */
  prepare(rows: RowInput[], ids: bigint[], colNos: ReadonlyMap<string, number>): { docs: StoredDoc[]; inputs: DocInput[] } {
    return this.prepareDocs(mapPacked(rows, (r, i) => this.#storedDoc(r, i + 1, colNos)), ids);
  }

  /** Index inputs of stored documents (already validated); token-count attributes are set in both. */
  prepareDocs(docs: StoredDoc[], ids: bigint[]): { docs: StoredDoc[]; inputs: DocInput[] } {
    // rows carry their texts and are tokenized when their segment is built, every row of it in one
    // batch (text-row.ts: a small write's at the RAM tail's seal, a big one's at once, with the build
    // thread's scanner straight into the inversion); token counts need the tokens now
    if (!this.#tokenCounts) return { docs, inputs: mapPacked(docs, (d, i) => this.#textRow(ids[i]!, d)) };
    const inputs = mapPacked(docs, (d, i) => this.docInput(ids[i]!, d));
    if (!this.#tokenCounts) return { docs, inputs };
    // the stored document keeps the token counts the index got, for SELECT
    const counts = this.index.schema.attrs.map((a, i) => [a.name, i] as const).filter(([n]) => this.column(n)?.tokenCount);
    for (const [name, i] of counts) docs.forEach((d, r) => { d[name] = inputs[r].attrs[i] as number; });
    return { docs, inputs };
  }

  /**
   * Inserts (or replaces) prepared rows: duplicates are an error for INSERT (nothing applied),
   * overwrite for REPLACE. Caller holds the mutex. Returns the number of rows written.
   */
  async write(ids: bigint[], docs: StoredDoc[], inputs: DocInput[], replace: boolean, idsChecked = false): Promise<number> {
    if (this.readLocks) throw lockedForInsert(this.name);
    if (!replace && !idsChecked) {
      const at = this.duplicateAt(ids);
      if (at >= 0) throw new SearchError('DUPLICATE_ID', `duplicate id '${ids[at]}'`);
    }
    // REPLACE with an id twice in one statement: the last row wins, as one write after another. An
    // INSERT's ids are distinct and new (checked above or by the caller): every row, nothing replaced.
    const keep = replace ? lastOfEachId(ids) : null;
    if (!keep && !this.store.carrying?.()) return this.#insertOverlapped(ids, docs, inputs);
    // the index's fallible half first: a write the index cannot take fails before it is durable
    const batch = this.index.prepareBatch(keep ? keep.map((i) => inputs[i]) : inputs);
    return this.#commit(ids, docs, batch, keep);
  }

  /**
   * An INSERT of new ids: its commit queued and its segment built while lmdb's write thread commits
   * it (overlapped-commit.ts, shared with the group commit's rounds). A replicated op's write
   * (Store.alongside) and REPLACE keep the order of #commit.
   */
  async #insertOverlapped(ids: bigint[], docs: StoredDoc[], inputs: DocInput[]): Promise<number> {
    const calls = [ids.map((docId, i) => ({ op: 'put' as const, docId, doc: docs[i] }))];
    return this.#applyOverlapped(calls, startOverlapped(this.store, this.index, calls, inputs));
  }

  /**
   * Once an overlapped commit of new rows (`calls`, one) settled: its segment made visible; or freed and
   * the store's error thrown; or, the build failed, the durable rows deleted again (builtOrUndone).
   */
  async #applyOverlapped(calls: WriteOp[][], overlapped: Overlapped): Promise<number> {
    const [outcome] = await Promise.allSettled(overlapped.writes);
    const batch = await builtOrUndone(this.store, calls, overlapped, [outcome!]);
    if (outcome!.status === 'rejected') {
      this.index.discardBatch(batch);
      throw outcome!.reason;
    }
    this.index.applyBatch(batch, []);
    return calls[0]!.length;
  }

  /** Whether an INSERT's segment may be built elsewhere from the stored documents alone (build-job.ts): no token counts to fill in. */
  get buildsFromStored(): boolean { return !this.#tokenCounts; }

  /**
   * Inserts rows whose segment a build thread makes from `docs` (build-job.ts; `buildsFromStored`), the
   * store's commit started before the segment is back (`building`): the rows become
   * durable while the build thread still builds them, as an overlapped INSERT's (overlapped-commit.ts).
   * A bulk load's last batch was written to lmdb only after its build, the load's tail. The build
   * failing: the rows build here; the index refusing them: they are deleted again (builtOrUndone).
   * Caller holds the mutex and has checked the ids.
   */
  async writeBuilding(ids: bigint[], docs: StoredDoc[], building: Promise<BuiltSegment>): Promise<number> {
    if (this.readLocks) throw lockedForInsert(this.name);
    if (this.store.carrying?.()) {
      let built: BuiltSegment;
      try {
        built = await building;
      } catch {
        return this.#insertBuiltHere(ids, docs);
      }
      return this.#commit(ids, docs, this.index.preparedOf(built), null);
    }
    // its own transaction (Store.write), as #commit's: a group-commit round (writeTogether) within
    // 50 ms of the last goes through the write log first, each 25k-row batch then written twice
    const calls = [ids.map((docId, i) => ({ op: 'put' as const, docId, doc: docs[i] }))];
    const writes = [this.store.write(calls[0]!)];
    void writes[0]!.then(() => phase('store written'), () => undefined); // its lmdb commit done (a timeline's mark)
    // a write that fails while the build runs is read below (allSettled), not an unhandled rejection
    writes[0]!.catch(() => undefined);
    let built: Built;
    try {
      built = { batch: this.index.preparedOf(await building) };
    } catch {
      try {
        built = { batch: this.index.prepareBatch(this.prepareDocs(docs, ids).inputs) };
      } catch (e) {
        built = { error: e };
      }
    }
    return this.#applyOverlapped(calls, { writes, built });
  }

  /** New rows whose build thread failed: built here, the index's half first (#commit). */
  async #insertBuiltHere(ids: bigint[], docs: StoredDoc[]): Promise<number> {
    return this.#commit(ids, docs, this.index.prepareBatch(this.prepareDocs(docs, ids).inputs), null);
  }

  /** Makes a prepared batch durable (one store transaction), then visible; `keep` as in write(). */
  async #commit(ids: bigint[], docs: StoredDoc[], batch: PreparedBatch, keep: number[] | null): Promise<number> {
    try {
      await this.store.write((keep ?? ids.map((_, i) => i)).map((i) => ({ op: 'put' as const, docId: ids[i], doc: docs[i] })));
    } catch (e) {
      this.index.discardBatch(batch);
      throw e;
    }
    const existing = keep ? keep.map((i) => ids[i]).filter((id) => this.index.has(id)) : [];
    this.index.applyBatch(batch, existing);
    return ids.length;
  }

  /**
   * The first of `ids` an INSERT cannot take (live in the table, or repeated in `ids`), or -1.
   * `idsChecked` of write() says the caller asked this under the mutex already.
   */
  duplicateAt(ids: bigint[]): number {
    // ids in ascending order (an import's usual batch) repeat none: only the table is asked, no Set
    // of 25k bigints built per batch
    let ascending = true;
    for (let i = 1; i < ids.length && ascending; i++) ascending = ids[i - 1] < ids[i];
    if (ascending) {
      for (let i = 0; i < ids.length; i++) if (this.index.has(ids[i])) return i;
      return -1;
    }
    const seen = new Set<bigint>();
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      if (seen.has(id) || this.index.has(id)) return i;
      seen.add(id);
    }
    return -1;
  }

  /** Deletes by id; returns how many existed. Caller holds the mutex. */
  async deleteIds(ids: bigint[]): Promise<number> {
    if (this.readLocks) throw lockedForChange(this.name);
    const live = [...new Set(ids)].filter((id) => this.index.has(id));
    if (live.length === 0) return 0;
    await this.store.write(live.map((docId) => ({ op: 'delete' as const, docId })));
    return this.index.delete(live);
  }

  /** Updates attributes of live documents; returns how many were updated. Caller holds the mutex. */
  async updateIds(ids: bigint[], values: Map<string, AttrValue>): Promise<number> {
    return this.updateEach([...new Set(ids)].map((id) => [id, values]));
  }

  /**
   * Each live document's own new attribute values, in one durable write (an UPDATE of JSON paths
   * gives each document its own JSON); returns how many were updated. Caller holds the mutex.
   */
  async updateEach(updates: [bigint, Map<string, AttrValue>][]): Promise<number> {
    if (this.readLocks) throw lockedForChange(this.name);
    const live = updates.filter(([id]) => this.index.has(id));
    if (live.length === 0) return 0;
    await this.store.write(live.map(([docId, values]) => ({ op: 'update' as const, docId, values: Object.fromEntries(values) })));
    for (const [id, values] of live) this.index.updateAttrs(id, values);
    return live.length;
  }

  search(req: SearchRequest): SearchResult {
    return this.index.search(req);
  }

  /** search() on the query worker threads when the table is big enough (index/parallel/query-threads.ts). */
  searchAsync(req: SearchRequest): Promise<SearchResult> {
    return this.index.searchAsync(req);
  }

  /** Stored documents for the final page, in the given order. */
  fetch(ids: bigint[]): (StoredDoc | undefined)[] {
    return this.store.getDocs(ids);
  }
}

/** The positions of `ids` to write when a later row of the same id replaces an earlier one: each id's last, in order. */
function lastOfEachId(ids: bigint[]): number[] {
  const last = new Map<bigint, number>();
  ids.forEach((id, i) => last.set(id, i));
  return [...last.values()].sort((a, b) => a - b);
}
