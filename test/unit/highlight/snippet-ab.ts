// The highlight scan tests' (snippet-scan-path, snippet-scan-windows) A/B run: a query's snippets built
// twice over the same fields, a path switch off then on, under each of the builder's flag sets.
import { parseQuery } from '../../../src/query/parse-query.js';
import { buildSnippets, packSnippets, type BuildFlags, type SnippetEnv } from '../../../src/highlight/snippet-builder.js';
import { snippetOptions, type RawOption } from '../../../src/highlight/snippet-options.js';

export const FIELDS = ['title', 'body'];

/** SQL SNIPPET() (fields ignored), CALL SNIPPETS from the index, and JSON (packed fields). */
export const flagSets: BuildFlags[] = [
  { ignoreFields: true, textFromIndex: false, packFields: false },
  { ignoreFields: false, textFromIndex: true, packFields: false, schemaFields: FIELDS },
  { ignoreFields: false, textFromIndex: true, packFields: true, schemaFields: FIELDS },
];

/** [with the switch on, with it off]: the packed snippets of `texts` (FIELDS in order) for query `q`. */
export function snippetsAb(
  table: SnippetEnv, q: string, texts: string[], opts: RawOption[], flags: BuildFlags, setOn: (on: boolean) => void,
): [string, string] {
  const { pipeline, settings } = table;
  const o = snippetOptions(opts);
  const root = parseQuery(q, { fields: FIELDS, notTermsOnlyAllowed: true }).root;
  const fields = texts.map((text, i) => ({ name: FIELDS[i], text }));
  const run = (): string => JSON.stringify(buildSnippets(root, fields, o, { pipeline, settings }, flags).map((f) => packSnippets([f], o)));
  setOn(false);
  const off = run();
  setOn(true);
  return [run(), off];
}
