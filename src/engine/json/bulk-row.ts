/**
 * A `/bulk` insert line's document as the table's stored document, built straight from the JSON object:
 * the same checks, texts and order as `/insert`'s docEntries + docRow + Table.prepare (json-write.ts,
 * table.ts), without the per-line entry arrays, the two Maps per row and the lower-casing of every key
 * of every line. A run's lines mostly repeat one set of keys: each key's column is looked up once per
 * run (and schema), and a line's values sit in an array by schema position.
 */
import { SearchError } from '../../util/errors.js';
import type { Column } from '../../schema/types.js';
import type { StoredDoc } from '../durability/table-store.js';
import type { Literal } from '../values/literal.js';
import type { Table } from '../table.js';
import { insertDocLiteral, repeatedPairs, twiceError, twiceNamed, type JsonObject, type JsonValue } from './json-value.js';
import { docJsonWarning } from '../exec/insert-warnings.js';

/** Where a document key goes: its column's schema position, or null for `id` (not a column value). */
type KeyTarget = { at: number; json: boolean } | null;

/** One run's lookups of document keys into its table's schema. */
export class BulkRows {
  #schema: Table['schema'] | undefined;
  #targets = new Map<string, KeyTarget>();
  /** Reused per line: each schema column's literal and its 1-based position in the line (id is 1). */
  #lits: (Literal | undefined)[] = [];
  #colNos: number[] = [];
  /** The schema read() placed the values by. */
  #readWith: Table['schema'] | undefined;

  constructor(readonly table: Table) {}

  /** The key's column (null: the `id` key), or throws `unknown column`; cached while the schema stays. */
  #target(key: string): KeyTarget {
    const schema = this.table.schema;
    if (schema !== this.#schema) {
      this.#schema = schema;
      this.#targets.clear();
    }
    let t = this.#targets.get(key);
    if (t !== undefined) return t;
    const name = key.toLowerCase();
    if (name === 'id') {
      t = null;
    } else {
      const col = this.table.column(name);
      if (!col) throw new SearchError('UNKNOWN_COLUMN', `unknown column: '${name}'`);
      t = { at: schema.columns.indexOf(col), json: col.type === 'json' };
    }
    this.#targets.set(key, t);
    return t;
  }

  /**
   * The line's values by schema column, checked as docRow checks them: each key (lower-cased, `id`
   * left out) a column, then no column named twice (in any case, or a key repeated in the text).
   * Call with docObject's object (json-write.ts), before the id is taken; stored() after (as `/insert` does).
   */
  read(doc: JsonObject | undefined): void {
    const schema = this.table.schema;
    const n = schema.columns.length;
    const lits = this.#lits;
    const colNos = this.#colNos;
    lits.length = n;
    colNos.length = n;
    lits.fill(undefined);
    colNos.fill(0);
    this.#readWith = schema;
    if (doc === undefined) return;
    let pos = 2;
    let twice = false;
    const repeated = repeatedPairs.get(doc);
    // the usual line has no repeated key: its keys read as before, no pair arrays made
    const keys = repeated ? repeated.map(([k]) => k) : Object.keys(doc);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const t = this.#target(key);
      if (t === null) continue;
      if (colNos[t.at] !== 0) twice = true;
      const v: JsonValue = repeated ? repeated[i]![1] : doc[key]!;
      lits[t.at] = insertDocLiteral(v, t.json);
      colNos[t.at] = pos++;
    }
    if (twice) throw twiceError(twiceNamed(keys.map((k) => k.toLowerCase()).filter((k) => k !== 'id'))!);
  }

  /** The stored document of the values read last, with Table.storedDocOf's coercions and `row 1, column N` errors. */
  stored(): StoredDoc {
    let lits = this.#lits;
    let colNos = this.#colNos;
    const columns = this.table.schema.columns;
    // the schema changed while a generated id was awaited: the values follow their columns by name, as the Map of docRow does
    if (this.#readWith !== this.table.schema) [lits, colNos] = this.#byName(this.#readWith!.columns, columns);
    return this.table.storedDocOf((_, i) => lits[i], 1, (col: Column) => colNos[columns.indexOf(col)] ?? 0);
  }

  /** The P10 warning of the document stored last (its JSON values stored NULL), as `/insert` gives it. */
  warning(): string | undefined {
    return docJsonWarning(this.#readWith!.columns, (i) => this.#lits[i]);
  }

  #byName(from: readonly Column[], to: readonly Column[]): [(Literal | undefined)[], number[]] {
    const at = new Map(from.map((c, i) => [c.name.toLowerCase(), i]));
    const lits = to.map((c) => { const i = at.get(c.name.toLowerCase()); return i === undefined ? undefined : this.#lits[i]; });
    const colNos = to.map((c) => { const i = at.get(c.name.toLowerCase()); return i === undefined ? 0 : this.#colNos[i]!; });
    return [lits, colNos];
  }
}
