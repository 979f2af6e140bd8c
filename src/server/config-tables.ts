/**
 * A config file's RT table sections as table schemas (`rt_field`, `rt_attr_*`, `stored_fields`, text
 * settings), for TRUNCATE ... WITH RECONFIGURE and tables declared in the config.
 */
import type { Column, ColumnType, TableSchema } from '../schema/types.js';
import { SearchError } from '../util/errors.js';
import { checkOptimizeCutoff } from '../engine/index-factory.js';
import { lastValue, type ConfigSection, type ManticoreConfig } from './config-parser.js';

/** Attribute directives and the column type each declares (Manticore's sphRTSchemaConfigure). */
export const RT_ATTR_TYPES: Record<string, ColumnType> = {
  rt_attr_uint: 'uint',
  rt_attr_bigint: 'bigint',
  rt_attr_timestamp: 'timestamp',
  rt_attr_bool: 'bool',
  rt_attr_float: 'float',
  rt_attr_string: 'string',
  rt_attr_json: 'json',
  rt_attr_multi: 'mva',
  rt_attr_multi_64: 'mva64',
};

/** Keys that describe the schema or the table's files rather than text settings. */
const SCHEMA_KEYS = new Set(['type', 'path', 'rt_field', 'stored_fields', 'stored_only_fields', 'source', ...Object.keys(RT_ATTR_TYPES)]);

export interface ConfigTableSchema {
  schema: TableSchema;
}

/** `stored_fields` (default `*`: every field) and `stored_only_fields` as name lists. */
function storedFieldSets(section: ConfigSection): { stored: Set<string> | 'all'; storedOnly: Set<string> } {
  const list = (v: string | undefined) => new Set((v ?? '').toLowerCase().split(/[\s,]+/).filter(Boolean));
  const stored = (lastValue(section, 'stored_fields') ?? '*').trim();
  return { stored: stored === '*' ? 'all' : list(stored), storedOnly: list(lastValue(section, 'stored_only_fields')) };
}

function fieldColumns(section: ConfigSection, stringAttrs: Set<string>): Column[] {
  const { stored, storedOnly } = storedFieldSets(section);
  const columns: Column[] = [];
  for (const raw of section.get('rt_field') ?? []) {
    const name = raw.trim().toLowerCase();
    // a field and a string attribute of one name are Manticore's `string attribute indexed`
    if (stringAttrs.has(name)) continue;
    columns.push({ name, type: 'text', indexed: true, stored: stored === 'all' || stored.has(name) });
  }
  for (const name of storedOnly) columns.push({ name, type: 'text', indexed: false, stored: true });
  return columns;
}

function attrColumns(section: ConfigSection, fields: Set<string>, tableName: string): Column[] {
  const columns: Column[] = [];
  for (const entry of section.entries((key) => key in RT_ATTR_TYPES)) {
    const [rawName, bitsText] = entry.value.split(':').map((s) => s.trim());
    const name = rawName!.toLowerCase();
    if (name === 'id') continue; // the id is implicit
    const type = RT_ATTR_TYPES[entry.key]!;
    const column: Column = { name, type, indexed: type === 'string' && fields.has(name), stored: false };
    if (bitsText !== undefined) {
      const bits = Number(bitsText);
      if (type !== 'uint' || !(bits > 0 && bits <= 32)) {
        throw new SearchError('BAD_SETTING', `table '${tableName}': attribute '${name}': invalid bitcount=${bitsText}`);
      }
      column.bits = bits;
    }
    columns.push(column);
  }
  return columns;
}

/** Table keys a config file may repeat (Manticore's KEY_LIST text settings): every value is used. */
const LIST_SETTINGS = new Set(['wordforms']);

/**
 * A setting's value in a config section: a list key's values joined by spaces (wordforms reads
 * them as one file list); any other repeated key keeps its first value, as Manticore, which warns
 * "key '...' is not multi-value; value ... will be ignored" for the later ones.
 */
function settingValue(section: ConfigSection, key: string): string {
  const values = section.get(key) ?? [];
  return LIST_SETTINGS.has(key) ? values.join(' ') : values[0] ?? '';
}

/**
 * One `table` section as a schema; the settings keep every other key (see settingValue). Throws
 * (BAD_SETTING, so the server does not start) on a bad bitcount or optimize_cutoff.
 */
export function tableSchemaOf(name: string, section: ConfigSection): TableSchema {
  const tableName = name.toLowerCase();
  const fields = new Set((section.get('rt_field') ?? []).map((f) => f.trim().toLowerCase()));
  const stringAttrs = new Set((section.get('rt_attr_string') ?? []).map((a) => a.split(':')[0]!.trim().toLowerCase()));
  const columns = [...fieldColumns(section, stringAttrs), ...attrColumns(section, fields, tableName)];
  const settings: Record<string, string> = {};
  for (const key of section.keys()) {
    if (!SCHEMA_KEYS.has(key)) settings[key] = settingValue(section, key);
  }
  // refused as CREATE TABLE refuses it: kept, it would be stored with the table and ignored
  checkOptimizeCutoff(tableName, settings);
  return { name: tableName, columns, settings };
}

/**
 * The RT and distributed tables of a config by lowercased name. Sections of other types (plain tables
 * built from a `source`, percolate) cannot be served and are reported in `skipped`.
 */
export function configTables(config: ManticoreConfig): {
  tables: Map<string, ConfigTableSchema>; distributed: Map<string, Record<string, string[]>>; skipped: string[];
} {
  const tables = new Map<string, ConfigTableSchema>();
  const distributed = new Map<string, Record<string, string[]>>();
  const skipped: string[] = [];
  for (const [name, section] of config.tables) {
    const type = (lastValue(section, 'type') ?? 'plain').toLowerCase();
    if (type === 'rt') tables.set(name.toLowerCase(), { schema: tableSchemaOf(name, section) });
    // a distributed section's keys, every value kept (local and agent repeat); the engine checks them
    else if (type === 'distributed') distributed.set(name.toLowerCase(), Object.fromEntries(section.keys().map((k) => [k, section.get(k)!])));
    else skipped.push(name);
  }
  return { tables, distributed, skipped };
}
