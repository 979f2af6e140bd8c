/**
 * Warnings searchd's INSERT gives while it still stores the row (searchd.cpp AttributeConverter_c):
 * a float inside an MVA's value list is stored truncated, as quarry does, with
 * `MVA attribute N at row R: inserting float value` (CheckMVA; a later one replaces an earlier one).
 * N is the attribute's place in searchd's schema: id 0, the blob locator 1 (every table with an MVA has
 * blob attributes), then the attributes in declared order; R counts the statement's rows from 0
 * (test/test_400: `create table t(t text, m multi)`, `(5.5,4.4,5.5)` -> attribute 2, row 0, m = 4,5).
 */
import type { TableSchema } from '../../schema/types.js';
import type { RowInput, Table } from '../table.js';

/** The MVA columns of a schema with searchd's attribute number, computed once per schema. */
const MVA_PLACES = new WeakMap<TableSchema, [string, number][]>();

function mvaPlaces(schema: TableSchema): [string, number][] {
  let places = MVA_PLACES.get(schema);
  if (!places) {
    const attrs = schema.columns.filter((c) => c.type !== 'text' && !c.tokenCount);
    places = attrs.flatMap((c, i): [string, number][] => (c.type === 'mva' || c.type === 'mva64' ? [[c.name.toLowerCase(), 2 + i]] : []));
    MVA_PLACES.set(schema, places);
  }
  return places;
}

/** The INSERT's warning, or undefined (most tables have no MVA: one WeakMap look-up). */
export function insertWarning(table: Table, inputs: RowInput[]): string | undefined {
  const places = mvaPlaces(table.schema);
  if (!places.length) return undefined;
  let warning: string | undefined;
  for (let r = 0; r < inputs.length; r++) {
    for (const [name, attr] of places) {
      const v = inputs[r]!.values.get(name);
      if (v?.t === 'tuple' && v.v.some((x) => x.t === 'float')) warning = `MVA attribute ${attr} at row ${r}: inserting float value`;
    }
  }
  return warning;
}
