// Conformance cases: read ../shared/conformance/cases/*.jsonl in place (never copied), numbers kept lossless.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'lossless-json';

export interface SqlStep {
  sql: string;
}

export interface HttpStep {
  http: {
    method: string;
    path: string;
    /** A JSON value is sent serialized, a string verbatim, null means no body. */
    body: unknown;
    headers?: Record<string, string>;
  };
}

export type Step = SqlStep | HttpStep;

export type CompareMode = 'exact' | 'contains' | 'contains-unordered' | 'shape';

export interface Case {
  id: string;
  area: string;
  source: string;
  evidence: string;
  setup: Step[];
  request: Step[];
  /** Numbers in here are LosslessNumber instances. */
  expect: Record<string, unknown>;
  compare: CompareMode;
  vary: string[];
  server_config?: Record<string, unknown>;
  notes?: string;
}

export function isSqlStep(step: Step): step is SqlStep {
  return typeof (step as SqlStep).sql === 'string';
}

function steps(value: unknown): Step[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]) as Step[];
}

/** One line of a .jsonl file as a Case, lists normalized (a single step becomes a list of one). */
export function parseCaseLine(line: string): Case {
  const raw = parse(line) as Record<string, unknown>;
  return {
    ...(raw as unknown as Case),
    setup: steps(raw.setup),
    request: steps(raw.request),
    vary: (raw.vary as string[] | undefined) ?? [],
    compare: (raw.compare as CompareMode | undefined) ?? 'exact',
  };
}

/** The cases directory: `<dir>/cases` when it exists, else `dir` itself. */
export function casesDir(dir: string): string {
  const nested = join(dir, 'cases');
  return existsSync(nested) ? nested : dir;
}

/** Every case of every .jsonl file in the directory, files in name order, lines in file order. */
export function loadCases(dir: string): Case[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort();
  const cases: Case[] = [];
  for (const file of files) {
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        cases.push(parseCaseLine(line));
      } catch (e) {
        throw new Error(`${file}:${i + 1}: ${(e as Error).message}`);
      }
    });
  }
  return cases;
}
