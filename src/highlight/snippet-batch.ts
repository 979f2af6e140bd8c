/**
 * A page of documents' snippets, spread over the snippet threads when the host installed some
 * (Node: src/engine/snippet-threads.ts) and the page holds enough text, else built here. The output
 * is the same either way: each thread runs buildSnippets with the table's settings, and a share a
 * thread could not build is built here.
 */
import type { QueryNode } from '../query/ast.js';
import type { TableSettings } from '../schema/types.js';
import { buildSnippets, type BuildFlags, type FieldInput, type SnippetEnv } from './snippet-builder.js';
import type { SnippetOptions } from './snippet-options.js';
import type { PassageText } from './snippet-render.js';

/** One share of a page as a thread builds it: everything buildSnippets needs, as plain data. */
export interface SnippetJob {
  /** The table's raw text settings: the thread makes the same pipeline from them. */
  settings: TableSettings;
  root: QueryNode;
  opts: SnippetOptions;
  flags: BuildFlags;
  /** Per document its fields. */
  docs: FieldInput[][];
}

/** Other threads building snippets: `run` resolves with each document's fields' passages, rejects when it cannot. */
export interface SnippetThreads {
  count: number;
  run(job: SnippetJob): Promise<PassageText[][][]>;
}

let threads: SnippetThreads | null = null;

/** Installs (or with null removes) the threads pages are spread over. */
export function setSnippetThreads(t: SnippetThreads | null): void {
  threads = t && t.count > 0 ? t : null;
}

/**
 * Text below which a page stays on this thread: a share's round trip (structured clone of the texts
 * and passages, a wake-up) costs about what highlighting a few kB does.
 */
export const MIN_SPLIT_UNITS = 8192;

const unitsOf = (doc: FieldInput[]): number => doc.reduce((a, f) => a + f.text.length, 0);

/**
 * Cuts `docs` into `parts` runs of about equal text, in order; the first run stays here. Returns the
 * start index of each run.
 */
function cuts(docs: FieldInput[][], parts: number): number[] {
  const sizes = docs.map(unitsOf);
  const total = sizes.reduce((a, b) => a + b, 0);
  const starts = [0];
  let acc = 0;
  for (let i = 0; i < docs.length && starts.length < parts; i++) {
    acc += sizes[i];
    if (acc >= (total * starts.length) / parts && i + 1 < docs.length) starts.push(i + 1);
  }
  return starts;
}

/** Every document's fields' passages (buildSnippets per document), in order. */
export async function buildSnippetsBatch(
  root: QueryNode, docs: FieldInput[][], o: SnippetOptions, env: SnippetEnv, flags: BuildFlags,
): Promise<PassageText[][][]> {
  const build = (d: FieldInput[]): PassageText[][] => buildSnippets(root, d, o, env, flags);
  const t = threads;
  if (!t || docs.length < 2 || docs.reduce((a, d) => a + unitsOf(d), 0) < MIN_SPLIT_UNITS) return docs.map(build);
  const starts = cuts(docs, t.count + 1);
  const shares = starts.map((s, i) => docs.slice(s, starts[i + 1] ?? docs.length));
  // the other shares go out first, then this thread builds the first one meanwhile
  const pending = shares.slice(1).map((share) =>
    t.run({ settings: env.settings, root, opts: o, flags, docs: share }).catch(() => null));
  const out = shares[0].map(build);
  const rest = await Promise.all(pending);
  rest.forEach((r, i) => { out.push(...(r && r.length === shares[i + 1].length ? r : shares[i + 1].map(build))); });
  return out;
}
