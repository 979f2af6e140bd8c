import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/server/config-parser.js';
import { declaredColumns, tableSchemaFor } from '../../../src/indexer/source-schema.js';
import { parseSqlAttrMulti } from '../../../src/indexer/mysql-source.js';

const config = parseConfig(`
source s {
  type = tsvpipe
  tsvpipe_field = title
  tsvpipe_attr_uint = year:16
  tsvpipe_field_string = sku
  tsvpipe_attr_multi = tags
  tsvpipe_attr_json = meta
}
table t {
  type = plain
  source = s
  path = /var/lib/x
  morphology = stem_en
  stored_fields = title
}`);

describe('source schema', () => {
  it('keeps the declarations in config order, across keys', () => {
    expect(declaredColumns(config.sources.get('s')!, 'tsvpipe')).toEqual([
      { name: 'title', type: 'field' }, { name: 'year', type: 'uint', bits: 16 }, { name: 'sku', type: 'field_string' },
      { name: 'tags', type: 'multi' }, { name: 'meta', type: 'json' },
    ]);
  });

  it('makes the table: fields, a field_string as an indexed string attribute, the text settings', () => {
    const schema = tableSchemaFor('t', declaredColumns(config.sources.get('s')!, 'tsvpipe'), config.tables.get('t')!);
    expect(schema.columns.map((c) => [c.name, c.type, c.indexed, c.stored])).toEqual([
      ['title', 'text', true, true], ['year', 'uint', false, false], ['sku', 'string', true, false],
      ['tags', 'mva', false, false], ['meta', 'json', false, false],
    ]);
    expect(schema.settings).toEqual({ morphology: 'stem_en' });
  });

  it('reads sql_attr_multi from field and from query, and names what it does not support', () => {
    expect(parseSqlAttrMulti('uint tag from field')).toEqual({ name: 'tag', type: 'multi', query: undefined });
    expect(parseSqlAttrMulti('bigint tag from query; SELECT id, tag FROM tags')).toEqual({ name: 'tag', type: 'multi_64', query: 'SELECT id, tag FROM tags' });
    expect(() => parseSqlAttrMulti('uint tag from ranged-query; SELECT 1')).toThrow("'ranged-query' is not supported");
  });
});
