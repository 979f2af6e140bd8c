import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/server/config-parser.js';
import { configTables, tableSchemaOf } from '../../../src/server/config-tables.js';

describe('tableSchemaOf', () => {
  it('builds fields, then attributes in file order across directive kinds', () => {
    const config = parseConfig(`table Products {
  type = rt
  path = /tmp/p
  rt_field = Title
  rt_attr_uint = gid
  rt_field = body
  rt_attr_float = price
  rt_attr_uint = flags:3
  rt_attr_multi = tags
  rt_attr_json = meta
  morphology = stem_en
  min_infix_len = 3
}`);
    expect(tableSchemaOf('Products', config.tables.get('Products')!)).toEqual({
      name: 'products',
      columns: [
        { name: 'title', type: 'text', indexed: true, stored: true },
        { name: 'body', type: 'text', indexed: true, stored: true },
        { name: 'gid', type: 'uint', indexed: false, stored: false },
        { name: 'price', type: 'float', indexed: false, stored: false },
        { name: 'flags', type: 'uint', indexed: false, stored: false, bits: 3 },
        { name: 'tags', type: 'mva', indexed: false, stored: false },
        { name: 'meta', type: 'json', indexed: false, stored: false },
      ],
      settings: { morphology: 'stem_en', min_infix_len: '3' },
    });
  });

  it('honours stored_fields and stored_only_fields, and a field that is also a string attribute', () => {
    const config = parseConfig(`table t {
  type = rt
  rt_field = a
  rt_field = b
  rt_field = s
  rt_attr_string = s
  stored_fields = a
  stored_only_fields = raw
}`);
    expect(tableSchemaOf('t', config.tables.get('t')!).columns).toEqual([
      { name: 'a', type: 'text', indexed: true, stored: true },
      { name: 'b', type: 'text', indexed: true, stored: false },
      { name: 'raw', type: 'text', indexed: false, stored: true },
      { name: 's', type: 'string', indexed: true, stored: false },
    ]);
  });

  it('rejects bit counts on non-integer attributes', () => {
    const config = parseConfig('table t {\n type = rt\n rt_attr_float = f:3\n}');
    expect(() => tableSchemaOf('t', config.tables.get('t')!)).toThrow(/invalid bitcount=3/);
  });
});

describe('configTables', () => {
  it('keeps RT and distributed tables by lowercased name and reports the rest', () => {
    const config = parseConfig('table A {\n type = rt\n rt_field = x\n}\nindex plain1 {\n source = s\n}\ntable D {\n type = distributed\n local = a\n agent = h:1:x\n agent = h:2:y\n}\nindex p {\n type = percolate\n}');
    const { tables, distributed, skipped } = configTables(config);
    expect([...tables.keys()]).toEqual(['a']);
    expect(distributed).toEqual(new Map([['d', { type: ['distributed'], local: ['a'], agent: ['h:1:x', 'h:2:y'] }]]));
    expect(skipped).toEqual(['plain1', 'p']);
  });
});
