import { describe, expect, it } from 'vitest';
import { RawJson } from '../../../src/engine/values/cell-format.js';
import { insertReplyJson } from '../../../src/http/json-render.js';
import { toJsonText } from '../../../src/http/json-text.js';

/** The reply as the generic render wrote it from its object before insertReplyJson wrote its text. */
function generic(table: string, id: bigint, replace: boolean): string {
  const idJson = new RawJson(BigInt.asUintN(64, id).toString());
  return toJsonText({
    _index: table, table, _id: idJson, id: idJson,
    created: !replace, result: replace ? 'updated' : 'created', status: replace ? 200 : 201,
  });
}

describe('insertReplyJson', () => {
  it.each([
    ['gcide', 1n, false], ['gcide', 1n, true], ['t_2', 9223372036854775807n, false],
    ['t', -1n, true], ['t', -9223372036854775808n, false], ['odd"name\\', 42n, false],
  ] as const)('writes %s id %s (replace %s) byte for byte as the object render', (table, id, replace) => {
    const text = toJsonText(insertReplyJson({ table, id, replace }));
    expect(text).toBe(generic(table, id, replace));
    expect(JSON.parse(text)).toMatchObject({ table, _index: table, created: !replace, status: replace ? 200 : 201 });
  });
});
