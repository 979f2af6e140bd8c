// `/sql?mode=raw` and `/cli_json` result sets: the text written straight from the rows is the JSON the
// generic writer (toJsonText over one JsonFields per row) gives, for every cell kind and awkward names.
import { describe, expect, it } from 'vitest';
import { cellToRawJson, JsonFields, mysqlTypeName, type JsonOut } from '../../../src/engine/values/cell-format.js';
import type { CellKind, RowsResult } from '../../../src/engine/result.js';
import { toJsonText } from '../../../src/http/json-text.js';
import { rawOkJson, rawRowsJson, renderRawReply } from '../../../src/http/render-raw.js';

/** The result set as the generic writer renders it (the shape rawRowsJson replaced). */
function generic(r: RowsResult): string {
  const columns = r.columns.map((c) => new JsonFields([[c.name, new JsonFields([['type', mysqlTypeName(c.kind)]])]]));
  const data = r.rows.map((row) => new JsonFields(r.columns.map((c, i): [string, JsonOut] => [c.name, cellToRawJson(row[i] ?? null, c.kind)])));
  return toJsonText(new JsonFields([['columns', columns], ['data', data], ['total', r.rows.length], ['error', ''], ['warning', '']]));
}

/** The reply without searchd's layout newlines (a cell's own newline is escaped inside its string). */
const flat = (j: JsonOut): string => toJsonText(j).replaceAll('\n', '');

const rows = (columns: Array<[string, CellKind]>, data: RowsResult['rows']): RowsResult =>
  ({ kind: 'rows', columns: columns.map(([name, kind]) => ({ name, kind })), rows: data });

describe('rawRowsJson', () => {
  it('writes every kind of cell, nulls and escapes as the generic writer does', () => {
    const r = rows(
      [['id', 'bigint'], ['weight()', 'uint'], ['ts', 'timestamp'], ['ok', 'bool'], ['price', 'float'], ['tag "a"\\b', 'string'], ['j', 'json'], ['m', 'mva']],
      [
        [18446744073709551615n, 1500, 1700000000, 1, 1.5, 'say "hi"\\\n\u0001', '{"a":1}', [3n, 1n, 2n]],
        [1n, null, null, null, null, null, null, null],
        [-9223372036854775808n, 0, 0, 0, -0.000001, '', '', []],
      ],
    );
    expect(flat(rawRowsJson(r))).toBe(generic(r));
    expect(JSON.parse(toJsonText(rawRowsJson(r)).replace(/:(-?\d{16,})/g, ':"$1"')).data[0]['tag "a"\\b']).toBe('say "hi"\\\n\u0001');
  });

  it('keeps repeated and integer-like column names in their order, and empty results', () => {
    const r = rows([['2', 'uint'], ['1', 'uint'], ['id', 'bigint'], ['id', 'bigint']], [[2, 1, 7n, 7n]]);
    expect(flat(rawRowsJson(r))).toBe('{"columns":[{"2":{"type":"long"}},{"1":{"type":"long"}},{"id":{"type":"long long"}},{"id":{"type":"long long"}}],"data":[{"2":2,"1":1,"id":7,"id":7}],"total":1,"error":"","warning":""}');
    expect(flat(rawRowsJson(rows([['id', 'bigint']], [])))).toBe(generic(rows([['id', 'bigint']], [])));
    expect(flat(rawRowsJson(rows([], [[], []])))).toBe(generic(rows([], [[], []])));
  });

  it('is the body of a raw reply, one object per statement', () => {
    const r = rows([['id', 'bigint']], [[5n]]);
    const reply = renderRawReply([r, { kind: 'ok', affected: 2 }]);
    expect(reply.status).toBe(200);
    expect(flat(reply.body)).toBe(`[${generic(r)},{"total":2,"error":"","warning":""}]`);
  });

  it("lays a result set out as searchd's row buffer does: one member a line, one row a line (CLT http-interface/multi-query.rec)", () => {
    const two = rows([['id', 'bigint'], ['v', 'string']], [[1n, 'a'], [2n, 'b']]);
    expect(toJsonText(renderRawReply([two, rows([['Table', 'string']], [])]).body)).toBe(
      '[{\n"columns":[{"id":{"type":"long long"}},{"v":{"type":"string"}}],\n"data":[\n{"id":1,"v":"a"},\n{"id":2,"v":"b"}\n],\n"total":2,\n"error":"",\n"warning":""\n},\n' +
        '{\n"columns":[{"Table":{"type":"string"}}],\n"data":[\n],\n"total":0,\n"error":"",\n"warning":""\n}]',
    );
    // an OK reply stays on one line: [{"total":1,"error":"","warning":""}]
    expect(toJsonText(renderRawReply([{ kind: 'ok', affected: 1 }]).body)).toBe('[{"total":1,"error":"","warning":""}]');
  });

  it.each([
    [{ kind: 'ok', affected: 1 }], [{ kind: 'ok', affected: 0, warning: 'a "quoted"\\ warning\n' }], [{ kind: 'ok', affected: 123456789 }],
  ] as const)('writes an OK reply %j as the generic writer over its fields', (r) => {
    const fields = new JsonFields([['total', r.affected], ['error', ''], ['warning', ('warning' in r ? r.warning : undefined) ?? '']]);
    expect(toJsonText(rawOkJson(r))).toBe(toJsonText(fields));
  });
});
