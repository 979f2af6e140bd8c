/**
 * Warnings searchd's INSERT gives while it still stores the row (searchd.cpp AttributeConverter_c):
 * a float inside an MVA's value list is stored truncated, as quarry does, with
 * `MVA attribute N at row R: inserting float value` (CheckMVA; a later one replaces an earlier one).
 * N is the attribute's place in searchd's schema: id 0, the blob locator 1 (every table with an MVA has
 * blob attributes), then the attributes in declared order; R counts the statement's rows from 0
 * (test/test_400: `create table t(t text, m multi)`, `(5.5,4.4,5.5)` -> attribute 2, row 0, m = 4,5).
 * A JSON value its grammar refuses is stored NULL with the parser's P10 message (String2JsonPack, json_strict
 * off): several join with '; ', and an MVA warning after them replaces them all (SetSprintf), rows first,
 * then the attributes in schema order.
 */
import type { Column, TableSchema } from '../../schema/types.js';
import type { RowInput, Table } from '../table.js';
import { nulledJsonWarning } from '../json/json-syntax-error.js';

/** The MVA and JSON columns of a schema, with searchd's attribute number, computed once per schema. */
const PLACES = new WeakMap<TableSchema, [string, number, boolean][]>();

function places(schema: TableSchema): [string, number, boolean][] {
  let found = PLACES.get(schema);
  if (!found) {
    const attrs = schema.columns.filter((c) => c.type !== 'text' && !c.tokenCount);
    found = attrs.flatMap((c, i): [string, number, boolean][] =>
      (c.type === 'mva' || c.type === 'mva64' || c.type === 'json' ? [[c.name.toLowerCase(), 2 + i, c.type === 'json']] : []));
    PLACES.set(schema, found);
  }
  return found;
}

/**
 * The INSERT's warning, or undefined (most tables have no MVA or JSON: one WeakMap look-up).
 * `mvaFloats` false for a JSON document (/insert, /replace, /bulk): searchd's ParseJsonInsertSource
 * takes an array's numbers without their float flag, so CheckMVA never warns there, while a JSON
 * attribute's P10 warning is the same as SQL's.
 */
export function insertWarning(table: Table, inputs: RowInput[], mvaFloats = true): string | undefined {
  const cols = places(table.schema);
  if (!cols.length) return undefined;
  let warning: string | undefined;
  for (let r = 0; r < inputs.length; r++) {
    for (const [name, attr, json] of cols) {
      const v = inputs[r]!.values.get(name);
      if (!v) continue;
      if (json) {
        const message = nulledJsonWarning(v);
        if (message !== undefined) warning = warning === undefined ? message : `${warning}; ${message}`;
      } else if (mvaFloats && v.t === 'tuple' && v.v.some((x) => x.t === 'float')) warning = `MVA attribute ${attr} at row ${r}: inserting float value`;
    }
  }
  return warning;
}

/** The P10 warnings of one JSON document's values, by column (undefined: not given), in schema order. */
export function docJsonWarning(columns: readonly Column[], literal: (i: number) => object | undefined): string | undefined {
  let warning: string | undefined;
  for (let i = 0; i < columns.length; i++) {
    if (columns[i]!.type !== 'json') continue;
    const lit = literal(i);
    const message = lit && nulledJsonWarning(lit);
    if (message !== undefined) warning = warning === undefined ? message : `${warning}; ${message}`;
  }
  return warning;
}
