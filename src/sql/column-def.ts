/** One column of CREATE TABLE / ALTER TABLE: name, type, text/string flags, item options. */
import type { ColumnDef, SqlColumnType } from './ast.js';
import type { Cursor } from './cursor.js';
import { isName } from './table-name.js';

/** Type words and the DESCRIBE type they mean (int, integer and uint are all `uint`). */
const ATTRIBUTE_TYPES: Record<string, SqlColumnType> = {
  INTEGER: 'uint', INT: 'uint', UINT: 'uint', BIGINT: 'bigint', FLOAT: 'float', BOOL: 'bool',
  MULTI: 'mva', MVA: 'mva', MULTI64: 'mva64', MVA64: 'mva64', JSON: 'json', TIMESTAMP: 'timestamp',
  FLOAT_VECTOR: 'float_vector',
};

/** Per-column options of ddl.y (`engine='columnar'`, `knn_type='hnsw'` ...): `name = 'string'`. */
const ITEM_OPTIONS = new Set([
  'ENGINE', 'HASH', 'FAST_FETCH', 'KNN_TYPE', 'KNN_DIMS', 'HNSW_SIMILARITY', 'HNSW_M', 'HNSW_EF_CONSTRUCTION',
  'MODEL_NAME', 'FROM', 'API_KEY', 'API_URL', 'API_TIMEOUT', 'CACHE_PATH', 'USE_GPU', 'QUANTIZATION',
  'SECONDARY_INDEX',
]);

const FLAG_INDEXED = 1, FLAG_STORED = 2, FLAG_ATTRIBUTE = 4;
const FLAG_WORDS: Record<string, number> = { INDEXED: FLAG_INDEXED, STORED: FLAG_STORED, ATTRIBUTE: FLAG_ATTRIBUTE };

/** Integer types an `id` column may be declared with (`id bigint`, `id int`). */
const ID_TYPES = new Set<SqlColumnType>(['uint', 'bigint']);

function parseItemOptions(c: Cursor): Record<string, string> {
  const options: Record<string, string> = {};
  while (ITEM_OPTIONS.has(c.peek().upper) && c.isPunct('=', 1)) {
    const name = c.next().value.toLowerCase();
    c.next();
    const v = c.peek();
    if (v.kind !== 'string') c.fail(['string']);
    c.next();
    options[name] = v.value;
  }
  return options;
}

function parseFlags(c: Cursor): number {
  let flags = 0;
  while (FLAG_WORDS[c.peek().upper] !== undefined) flags |= FLAG_WORDS[c.next().upper]!;
  return flags;
}

/**
 * text / string with optional INDEXED, STORED, ATTRIBUTE flags, as DdlParser_c::AddCreateTableCol reads
 * them: ATTRIBUTE makes a string attribute (plus a full-text field when INDEXED), otherwise a text field
 * with the given flags (none = indexed and stored).
 */
function stringColumn(c: Cursor, name: string, isText: boolean): ColumnDef {
  const given = parseFlags(c);
  const flags = given === 0 ? (isText ? FLAG_INDEXED | FLAG_STORED : FLAG_ATTRIBUTE) : given;
  const options = parseItemOptions(c);
  if (flags & FLAG_ATTRIBUTE) {
    if (flags & FLAG_STORED) c.failWith(`unable to create a stored attribute '${name.toLowerCase()}'`);
    return { name, type: 'string', indexed: (flags & FLAG_INDEXED) !== 0, stored: false, options };
  }
  const indexed = (flags & FLAG_INDEXED) !== 0;
  const stored = (flags & FLAG_STORED) !== 0;
  return { name, type: 'text', indexed, stored, options };
}

/**
 * Reads `name type [flags] [options]`. In CREATE TABLE (`inCreate`), an `id` column of an integer type or
 * without a type is accepted and dropped (null); another name without a type is Manticore's
 * `expected 'id', got 'x'`. An unknown type word is `unknown column type 'x'`.
 */
export function parseColumnDef(c: Cursor, inCreate: boolean): ColumnDef | null {
  // any word may name a column here (`text text`): the position leaves no doubt
  const nameTok = c.peek();
  if (nameTok.kind !== 'ident' && nameTok.kind !== 'quoted_ident') c.fail();
  c.next();
  const name = nameTok.value;
  const lower = name.toLowerCase();
  const t = c.peek();
  if (t.upper === 'TEXT' || t.upper === 'STRING') {
    c.next();
    return stringColumn(c, name, t.upper === 'TEXT');
  }
  if (t.upper === 'BIT' && c.isPunct('(', 1)) {
    c.next();
    c.next();
    const n = c.peek();
    if (n.kind !== 'int') c.fail(['integer']);
    c.next();
    c.expectPunct(')');
    return { name, type: 'uint', indexed: false, stored: false, bits: Number(n.value), options: parseItemOptions(c) };
  }
  const type = t.kind === 'ident' ? ATTRIBUTE_TYPES[t.upper] : undefined;
  if (type) {
    c.next();
    const options = parseItemOptions(c);
    if (inCreate && lower === 'id' && ID_TYPES.has(type)) return null;
    return { name, type, indexed: false, stored: false, options };
  }
  if (isName(c, t) && !c.isPunct('=', 1)) {
    c.next();
    parseItemOptions(c);
    c.failWith(`unknown column type '${t.value.toLowerCase()}'`);
  }
  parseItemOptions(c);
  if (!inCreate || !(c.isPunct(',') || c.isPunct(')'))) c.fail();
  if (lower !== 'id') c.failWith(`expected 'id', got '${lower}'`);
  return null;
}
