// Every SQL text of the shared conformance cases must parse, and the parse errors they record must match.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseSql } from '../../../src/sql/parse-sql.js';
import { SearchError } from '../../../src/util/errors.js';

const CASES_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../../shared/conformance/cases');

/** Parse errors the cases record that we do not reproduce, with the reason. */
const SKIP: Record<string, string> = {
  'cli-json-multi-statement-syntax':
    "Manticore's /cli_json cut the near-text before the last character ('; SELECT * FROM '); we print the rest of the query",
};

interface SqlText { caseId: string; sql: string; error?: string }

/** SQL steps (MySQL and raw-SQL HTTP bodies) of every case; the request's expected error when it has one. */
function collect(): SqlText[] {
  const out: SqlText[] = [];
  for (const file of readdirSync(CASES_DIR).filter((f) => f.endsWith('.jsonl'))) {
    for (const line of readFileSync(join(CASES_DIR, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const c = JSON.parse(line);
      const requests = [c.request].flat();
      for (const step of [...[c.setup ?? []].flat(), ...requests]) {
        const http = step.http;
        const sql: unknown = step.sql ?? (http && typeof http.body === 'string' && /^\/(cli|cli_json|sql)$/.test(http.path) ? http.body : undefined);
        if (typeof sql !== 'string') continue;
        const expected = requests.includes(step) ? (c.expect?.error ?? c.expect?.body?.error) : undefined;
        out.push({ caseId: c.id, sql, error: typeof expected === 'string' && /^P0\d:/.test(expected) ? expected : undefined });
      }
    }
  }
  return out;
}

describe.skipIf(!existsSync(CASES_DIR))('conformance SQL', () => {
  const texts = existsSync(CASES_DIR) ? collect() : [];

  it('finds the cases', () => {
    expect(texts.length).toBeGreaterThan(300);
  });

  it('parses every statement the cases send, except the recorded parse errors', () => {
    const failures: string[] = [];
    for (const t of texts) {
      if (t.error) continue;
      try {
        parseSql(t.sql);
      } catch (e) {
        failures.push(`${t.caseId}: ${t.sql.slice(0, 80)} -> ${(e as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  for (const t of texts.filter((x) => x.error)) {
    (SKIP[t.caseId] ? it.skip : it)(`${t.caseId} gives the recorded parse error`, () => {
      let message = '';
      try {
        parseSql(t.sql);
      } catch (e) {
        expect(e).toBeInstanceOf(SearchError);
        message = (e as SearchError).message;
      }
      expect(message).toBe(t.error);
    });
  }
});
