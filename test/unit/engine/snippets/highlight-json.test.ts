import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'lossless-json';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSession, openEngine, type Engine } from '../../../../src/engine/index.js';
import type { HighlightedRows } from '../../../../src/engine/snippets/highlight-json.js';
import { parseJsonHighlight } from '../../../../src/engine/snippets/highlight-json.js';
import type { JsonValue } from '../../../../src/engine/json/json-value.js';

let dir: string;
let engine: Engine;
const session = newSession();

async function highlights(body: unknown): Promise<unknown> {
  const r = await engine.json!.search(parse(JSON.stringify(body)) as JsonValue, session) as HighlightedRows;
  return r.highlights;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-hlj-'));
  engine = await openEngine({ dataDir: dir });
  await engine.execute('CREATE TABLE t (title text, body text, n int)', session);
  await engine.execute(`INSERT INTO t (id, title, body, n) VALUES (1,'red apple','one two three four five six seven red eight nine ten eleven twelve thirteen fourteen red fifteen',1),(2,'pear','green',2)`, session);
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('JSON highlight', () => {
  it('gives every stored field an array of passages; fields without a match get their start', async () => {
    expect(await highlights({ table: 't', query: { match: { body: 'green' } }, highlight: {} }))
      .toEqual([{ title: ['pear'], body: ['<b>green</b>'] }]);
  });

  it('splits passages into array items without separators, honours synonyms and per-field limits', async () => {
    const out = await highlights({
      table: 't', query: { match: { '*': 'red' } },
      highlight: { fields: { title: {}, body: { fragment_size: 40 } }, pre_tags: '[', post_tags: ']', around: 1 },
    });
    expect(out).toEqual([{ title: ['[red] apple'], body: [' seven [red] eight', ' fourteen [red] fifteen'] }]);
  });

  it('no_match_size 0 gives an empty array; highlight_query replaces the query', async () => {
    expect(await highlights({ table: 't', query: { match: { body: 'green' } }, highlight: { no_match_size: 0 } }))
      .toEqual([{ title: [], body: ['<b>green</b>'] }]);
    expect(await highlights({ table: 't', query: { match: { body: 'green' } }, highlight: { fields: ['title'], highlight_query: { match: { '*': 'pear' } } } }))
      .toEqual([{ title: ['<b>pear</b>'] }]);
  });

  it('reads limits_per_field as a boolean or an integer, and rejects other types', () => {
    expect(parseJsonHighlight(parse('{"limits_per_field":false}') as JsonValue).opts.limitsPerField).toBe(false);
    expect(parseJsonHighlight(parse('{"limits_per_field":0}') as JsonValue).opts.limitsPerField).toBe(false);
    expect(() => parseJsonHighlight(parse('{"limits_per_field":"no"}') as JsonValue)).toThrow('"limits_per_field" property value should be a boolean');
  });

  it('reports an invalid option only when a document is highlighted', async () => {
    expect(await highlights({ table: 't', query: { match: { body: 'nothing' } }, highlight: { html_strip_mode: 'strip123' } })).toEqual([]);
    await expect(highlights({ table: 't', query: { match: { body: 'green' } }, highlight: { html_strip_mode: 'strip123' } })).rejects.toThrow('html_strip_mode');
  });

  it('script_fields highlight() highlights by the request query into _source', async () => {
    const body = { table: 't', query: { query_string: 'pear' }, script_fields: { h: { script: { inline: "highlight({},'title')" } } } };
    const r = await engine.json!.search(parse(JSON.stringify(body)) as JsonValue, session);
    const h = r.columns.findIndex((c) => c.name === 'h');
    expect(r.rows.map((row) => row[h])).toEqual(['<b>pear</b>']);
  });
});

describe('JSON highlight of a field the query cannot match', () => {
  const words = Array.from({ length: 120 }, (_, i) => `w${i}`).join(' ');
  async function bodyStart(body: string): Promise<string> {
    await engine.execute(`REPLACE INTO t (id, title, body, n) VALUES (9, 'zebra', '${body}', 9)`, session);
    const out = await highlights({ table: 't', query: { query_string: '@title zebra' }, highlight: {} }) as { body: string[] }[];
    expect(out).toHaveLength(1);
    return out[0]!.body[0]!;
  }

  it('shows its start cut to the limit, codepoints counted (an astral character is one)', async () => {
    const plain = await bodyStart(`x ${words}`);
    expect(plain.endsWith(' ... ')).toBe(true);
    expect([...plain.slice(0, -5)].length).toBeLessThanOrEqual(256);
    // one codepoint in two UTF-16 units at the start: the same cut, one unit longer
    expect(await bodyStart(`\u{1f600} ${words}`)).toBe(`\u{1f600}${plain.slice(1)}`);
    // far past the cut: no effect on it
    expect(await bodyStart(`x ${words} ${words} \u{1f600} ${words}`)).toBe(plain);
  });

  it('gives the same answer to a repeated request (the query tree and its plan reused)', async () => {
    const body = { table: 't', query: { query_string: '@title red' }, highlight: {} };
    const first = await highlights(body);
    expect(first).toEqual([{ title: ['<b>red</b> apple'], body: ['one two three four five six seven red eight nine ten eleven twelve thirteen fourteen red fifteen'] }]);
    expect(await highlights(body)).toEqual(first);
  });
});

describe('JSON highlight options', () => {
  it('ignores keys searchd does not read and accepts the Sphinx names', () => {
    const spec = parseJsonHighlight(parse('{"require_field_match":true,"before_match":"[","after_match":"]","limit_snippets":2,"weight_order":true}') as JsonValue);
    expect(spec.opts).toMatchObject({ beforeMatch: '[', afterMatch: ']', limitSnippets: 2, weightOrder: true });
  });
});
