/**
 * A source's columns as Sphinx/Manticore declare them (`<prefix>_field`, `<prefix>_field_string`,
 * `<prefix>_attr_<type>` for the tsvpipe_, csvpipe_, xmlpipe_ and sql_ prefixes), and the quarry table
 * they make: fields are text (indexed, stored per the table's stored_fields), attributes columns, a
 * field_string both a field and a string attribute. The document id is never declared.
 */
import { ConfigSection } from '../server/config-parser.js';
import { tableSchemaOf } from '../server/config-tables.js';
import type { TableSchema } from '../schema/types.js';
import type { ColumnKind } from '../import/doc-builder.js';

/** What a column is: a full-text field, a field that is also a string attribute, or an attribute. */
export type SourceColumnType = 'field' | 'field_string' | 'uint' | 'bigint' | 'timestamp' | 'bool' | 'float' | 'string' | 'json' | 'multi' | 'multi_64';

export interface SourceColumn { name: string; type: SourceColumnType; bits?: number }

const ATTR_TYPES = new Set(['uint', 'bigint', 'timestamp', 'bool', 'float', 'string', 'json', 'multi', 'multi_64']);

/** Keys of a plain table section that are not text settings (the schema comes from its source). */
const PLAIN_ONLY_KEYS = new Set([
  'type', 'source', 'path', 'killlist_target', 'docinfo', 'mlock', 'preopen', 'ondisk_attrs', 'inplace_enable',
  'attr_update_reserve', 'access_plain_attrs', 'access_blob_attrs', 'access_doclists', 'access_hitlists',
]);

/** `<prefix>_attr_uint = name[:bits]` -> { name, type, bits }. */
function attrColumn(type: string, value: string): SourceColumn {
  const [name, bits] = value.split(':').map((s) => s.trim());
  const col: SourceColumn = { name: name!.toLowerCase(), type: type as SourceColumnType };
  if (bits !== undefined && type === 'uint') col.bits = Number(bits);
  return col;
}

/** The declared columns of a source section with `prefix` (tsvpipe, csvpipe, xmlpipe, sql), in file order. */
export function declaredColumns(section: ConfigSection, prefix: string): SourceColumn[] {
  const field = `${prefix}_field`;
  const fieldString = `${prefix}_field_string`;
  const attr = `${prefix}_attr_`;
  return section.entries((k) => k === field || k === fieldString || k.startsWith(attr)).map((e) => {
    if (e.key === field) return { name: e.value.trim().toLowerCase(), type: 'field' };
    if (e.key === fieldString) return { name: e.value.trim().toLowerCase(), type: 'field_string' };
    const type = e.key.slice(attr.length);
    if (!ATTR_TYPES.has(type)) throw new Error(`unknown attribute type '${e.key}'`);
    return attrColumn(type, e.value);
  });
}

/** How a column's text converts to a document value (doc-builder.ts). */
export function kindOf(t: SourceColumnType): ColumnKind {
  switch (t) {
    case 'uint': case 'bigint': case 'timestamp': case 'float': return 'number';
    case 'bool': return 'bool';
    case 'multi': case 'multi_64': return 'mva';
    case 'json': return 'json';
    default: return 'string';
  }
}

/**
 * The table `name` of `columns`, with the text settings of its `table` section: built as an RT
 * section (rt_field, rt_attr_*) and read by the same code as config RT tables.
 */
export function tableSchemaFor(name: string, columns: SourceColumn[], tableSection: ConfigSection): TableSchema {
  const rt = new ConfigSection();
  for (const c of columns) {
    if (c.type === 'field' || c.type === 'field_string') rt.add('rt_field', c.name);
    if (c.type === 'field_string') rt.add('rt_attr_string', c.name);
    else if (c.type !== 'field') rt.add(c.type === 'multi_64' ? 'rt_attr_multi_64' : `rt_attr_${c.type}`, c.bits ? `${c.name}:${c.bits}` : c.name);
  }
  for (const key of tableSection.keys()) {
    if (PLAIN_ONLY_KEYS.has(key)) continue;
    for (const v of tableSection.get(key) ?? []) rt.add(key, v);
  }
  return tableSchemaOf(name, rt);
}
