// /search `_source` patterns as searchd's sphWildcardMatch reads them (sphinxutils.cpp): `*` any run, `?`
// exactly one character, `%` zero or one, `\` the next character literally; `"includes"` / `"excludes"`
// that are not arrays get GetArrayItem's text. quarry knew only `*` (`"pric?"` showed nothing) and
// answered `"_source" "includes" property should be a string`.
import { parse } from 'lossless-json';
import { expect, it } from 'vitest';
import { newSession, type JsonValue } from '../../../../src/engine/index.js';
import { sourcePatternMatch } from '../../../../src/engine/json/source-pattern.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('source-pattern', async (t) => {
  await t.exec('create table s (title text, price float, tags multi, name string)');
  await t.exec("insert into s (id, title, price, tags, name) values (1, 'a b', 3.5, (1, 5), 'x')");
});

async function columns(source: string): Promise<string[]> {
  const r = await t.engine.json!.search(parse(`{"table":"s","_source":${source}}`) as JsonValue, newSession());
  return r.columns.map((c) => c.name).filter((n) => n !== 'id');
}

it('? matches one character, % zero or one, \\ escapes, * any run', () => {
  expect(['pric?', 'price?', '?rice', 'p?ice'].map((p) => sourcePatternMatch(p, 'price'))).toEqual([true, false, true, true]);
  expect(['price%', 'pri%ce', 'pr%ice', 'p%%rice', '%'].map((p) => sourcePatternMatch(p, 'price'))).toEqual([true, true, true, true, false]);
  expect(sourcePatternMatch('a\\?b', 'a?b')).toBe(true);
  expect(sourcePatternMatch('a\\?b', 'axb')).toBe(false);
  expect(sourcePatternMatch('a\\*', 'abc')).toBe(false);
  expect(sourcePatternMatch('*?e', 'price')).toBe(true);
  expect(sourcePatternMatch('*?e', 'e')).toBe(false);
  expect(sourcePatternMatch('t*s', 'tags')).toBe(true);
  expect(sourcePatternMatch('t*s', 'title')).toBe(false);
});

it('a /search _source with these patterns picks the same columns searchd does', async () => {
  expect(await columns('"pric?"')).toEqual(['price']);
  expect(await columns('["?a*"]')).toEqual(['tags', 'name']);
  expect(await columns('{"excludes":["p*","?ame"]}')).toEqual(['title', 'tags']);
  expect(await columns('{"includes":["t%tle","ti%tle"]}')).toEqual(['title']);
});

it("includes / excludes that are not arrays get searchd's text", async () => {
  await expect(columns('{"includes":"x"}')).rejects.toThrow('"includes" property value should be an array');
  await expect(columns('{"excludes":5}')).rejects.toThrow('"excludes" property value should be an array');
  await expect(columns('{"excludes":[5]}')).rejects.toThrow('"_source" "excludes" property should be a string');
});
