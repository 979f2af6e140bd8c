// Replays ../shared/conformance/cases/tokenization.jsonl (CALL KEYWORDS) against the text pipeline.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';

const CASES = new URL('../../../../shared/conformance/cases/tokenization.jsonl', import.meta.url);

interface Case {
  id: string;
  setup: { sql: string }[];
  request: { sql: string };
  expect: { rows: string[][] };
}

const unquote = (s: string) => s.replace(/\\(.)/g, '$1');

/** `key='value'` pairs after the column list of the CREATE TABLE in the setup. */
function tableSettings(c: Case): Record<string, string> {
  const create = c.setup.map((s) => s.sql).find((sql) => /^create table/i.test(sql)) ?? '';
  const tail = create.slice(create.lastIndexOf(')') + 1);
  const out: Record<string, string> = {};
  for (const m of tail.matchAll(/(\w+)\s*=\s*'((?:[^'\\]|\\.)*)'/g)) out[m[1].toLowerCase()] = unquote(m[2]);
  return out;
}

function keywordsText(c: Case): string {
  const m = /call keywords\s*\(\s*'((?:[^'\\]|\\.)*)'/i.exec(c.request.sql);
  if (!m) throw new Error(`no CALL KEYWORDS in ${c.id}`);
  return unquote(m[1]);
}

const cases: Case[] = readFileSync(CASES, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Case);

describe('tokenization conformance cases', () => {
  it('has cases to run', () => expect(cases.length).toBeGreaterThan(0));
  for (const c of cases) {
    it(c.id, () => {
      const rows = createTextPipeline(tableSettings(c)).keywords(keywordsText(c));
      expect(rows.map((r) => [String(r.qpos), r.tokenized, r.normalized])).toEqual(c.expect.rows);
    });
  }
});
