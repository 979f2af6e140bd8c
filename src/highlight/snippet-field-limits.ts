/**
 * Which fields a query leaf may match in, by its field limit (`@title`, `@!title`, `@(a,b)`) and the
 * names of the fields being highlighted; resolved once per limit (or query) and set of names, which
 * the documents of a page share.
 */
import type { FieldLimit, QueryNode } from '../query/ast.js';

const anyField = (): boolean => true;

const sameNames = (a: string[], b: string[]): boolean => a.length === b.length && a.every((n, i) => n === b[i]);

/** Per limit, the field names it was last resolved for and the answer. */
const resolved = new WeakMap<FieldLimit, { names: string[]; test: (f: number) => boolean }>();

/** Field indices a leaf may match in (names compared as the planner compares them). */
export function fieldTest(limit: FieldLimit | undefined, names: string[]): (f: number) => boolean {
  if (!limit || (!limit.fields.length && !limit.exclude)) return anyField;
  const r = resolved.get(limit);
  if (r && sameNames(r.names, names)) return r.test;
  const named = new Set(limit.fields.map((f) => f.toLowerCase()));
  const hit = names.map((n) => (limit.fields.length ? named.has(n.toLowerCase()) : true) !== limit.exclude);
  const test = (f: number): boolean => hit[f];
  resolved.set(limit, { names, test });
  return test;
}

/** Per query, the field names it was last resolved for and which of them some leaf may match in. */
const matchable = new WeakMap<QueryNode, { names: string[]; may: boolean[] }>();

/**
 * The fields some term or phrase of `root` (one under NOT too) may match in: the others can never
 * hold a hit. Read for the shapes the scan path takes (terms, phrases, AND, OR, NOT); any other
 * node makes every field matchable.
 */
export function matchableFields(root: QueryNode, names: string[]): boolean[] {
  const r = matchable.get(root);
  if (r && sameNames(r.names, names)) return r.may;
  const may = names.map(() => false);
  const walk = (n: QueryNode): void => {
    if (n.kind === 'term' || n.kind === 'phrase') {
      const ok = fieldTest(n.field, names);
      for (let f = 0; f < names.length; f++) if (ok(f)) may[f] = true;
    } else if (n.kind === 'and' || n.kind === 'or') n.children.forEach(walk);
    else if (n.kind === 'not') walk(n.child);
    else may.fill(true); // a shape this does not read: any field
  };
  walk(root);
  matchable.set(root, { names, may });
  return may;
}
