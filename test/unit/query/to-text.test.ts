import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { QueryNode } from '../../../src/query/ast.js';
import { parseQuery, type ParseOptions } from '../../../src/query/parse-query.js';
import { toText } from '../../../src/query/to-text.js';
import { SearchError } from '../../../src/util/errors.js';
import { strip } from './helpers.js';

const OPTS: ParseOptions = { fields: ['title', 'body'], notTermsOnlyAllowed: true };

describe('toText', () => {
  it('prints each operator in query syntax', () => {
    const cases: [string, string][] = [
      ['a | b c', '(a | b) c'],
      ['x -a | b', 'x -(a | b)'],
      ['"exact * phrase"~3', '"exact phrase"~3'],
      ['"exact * phrase"', '"exact * phrase"'],
      ['"a b c"/0.5', '"a b c"/0.5'],
      ['"a b c"/2', '"a b c"/2'],
      ['=^a$^1.5 b*', '=^a$^1.5 b*'],
      ['@title a @!body[3] b', '(@title a) (@!body[3] b)'],
      ['@title a @!(title,body) b', '(@title a)'],
      ['a << b NEAR/2 c', '(a << b) NEAR/2 c'],
      ['a NOTNEAR/2 b', 'a NOTNEAR/2 b'],
      ['a MAYBE b', 'a MAYBE b'],
      ['@title a SENTENCE "b c"', '(@title a SENTENCE "b c")'],
      ['ZONESPAN:(h1,h2) a b', '(ZONESPAN:(h1,h2) a b)'],
      ['-a', '-a'],
      ['()', '()'],
      ['', ''],
    ];
    for (const [q, printed] of cases) expect(toText(parseQuery(q, OPTS).root)).toBe(printed);
  });

  it('escapes a word that would read as an operator', () => {
    const node: QueryNode = { kind: 'and', children: [{ kind: 'term', text: 'MAYBE' }, { kind: 'term', text: 'b' }] };
    expect(toText(node)).toBe('\\MAYBE b');
    expect(strip(parseQuery(toText(node)).root)).toEqual(node);
  });
});

/** Random queries built from the syntax, mostly valid. */
const word = fc.constantFrom('a', 'b', 'cat', 'Dog', 'x1', '42', 'пес', 'c*', '*ion', 't?st', 'tes%');
const modified = fc.tuple(fc.constantFrom('', '=', '^', '=^'), word, fc.constantFrom('', '$', '^2', '$^0.5')).map(([p, w, s]) => p + w + s);
const words = fc.array(modified, { minLength: 1, maxLength: 4 }).map((ws) => ws.join(' '));
const phraseText = fc.tuple(fc.array(fc.oneof(modified, fc.constant('*')), { minLength: 1, maxLength: 4 }), fc.constantFrom('', '~3', '/2', '/0.5', '/1'))
  .map(([ws, tail]) => `"${ws.join(' ')}"${tail}`);
const limiter = fc.constantFrom('@title ', '@(title,body) ', '@!body ', '@* ', '@title[2] ', 'ZONE:h1 ', 'ZONESPAN:(h1,h2) ');
const { query } = fc.letrec((tie) => ({
  query: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    words,
    phraseText,
    fc.tuple(tie('query'), tie('query')).map(([x, y]) => `${x} ${y}`),
    fc.tuple(tie('query'), tie('query')).map(([x, y]) => `(${x}) | (${y})`),
    fc.tuple(tie('query'), word).map(([x, w]) => `(${x}) -${w}`),
    fc.tuple(tie('query'), tie('query'), fc.constantFrom('<<', 'NEAR/2', 'NOTNEAR/3', 'MAYBE')).map(([x, y, op]) => `(${x}) ${op} (${y})`),
    fc.tuple(word, phraseText, fc.constantFrom('SENTENCE', 'PARAGRAPH')).map(([w, p, op]) => `${w} ${op} ${p}`),
    fc.tuple(limiter, tie('query')).map(([l, x]) => `(${l}${x})`),
    fc.tuple(word, word, word).map(([x, y, z]) => `"${x} (${y} | ${z})"`),
  ),
})) as { query: fc.Arbitrary<string> };

/** Raw character soup, to reach odd corners of the lexer. */
const soup = fc.array(fc.constantFrom(...'ab ()|-!@~"/^$<=*?%\\.,:[]0123456789ЖNEARZONEMAYBESENTENCE—'.split('').concat(['NEAR/2', 'ZONE:', '@title', '"/0.5'])), { maxLength: 24 })
  .map((parts) => parts.join(''));

function parsesOrNull(q: string): QueryNode | null {
  try {
    return parseQuery(q, OPTS).root;
  } catch (e) {
    if (e instanceof SearchError) return null;
    throw e;
  }
}

/**
 * Trees text cannot give back, all made by search-time rewrites the syntax has no form for: an OR
 * of phrases as a SENTENCE operand; a `*` word inside a phrase (a phrase directly followed by
 * another loses its gaps); an AND under NEAR (a quorum replaced by AND: written as a group, NEAR
 * would spread it); ZONESPAN keywords side by side in an AND without forming one span; a ZONESPAN
 * group (an AND in one span) first in an AND, a `<<` first in a `<<`, or a NEAR/N first in a NEAR/N,
 * each left so by a vanished `<<` operand (written out, the operands after them join the inner AND,
 * `<<` or NEAR chain, as `(a NEAR/2 b) NEAR/2 c` parses to one chain).
 */
function printable(n: QueryNode): boolean {
  const spanGroup = (c: QueryNode): boolean => c.kind === 'zone' && c.span && c.child.kind === 'and';
  if (n.kind === 'and' && n.children.length > 1 && spanGroup(n.children[0])) return false;
  if (n.kind === 'order' && n.children[0].kind === 'order') return false;
  if (n.kind === 'near' && n.children[0].kind === 'near' && n.children[0].distance === n.distance) return false;
  if (n.kind === 'near' && n.children.some((c) => c.kind === 'and')) return false;
  if (n.kind === 'and' && n.children.filter((c) => c.kind === 'zone' && c.span && c.child.kind === 'term').length >= 2) return false;
  if ((n.kind === 'phrase' || n.kind === 'proximity' || n.kind === 'quorum') && n.terms.some((x) => x.text === '*')) return false;
  if ((n.kind === 'sentence' || n.kind === 'paragraph') && n.children.some((c) => c.kind === 'or' && c.children.some((g) => g.kind !== 'term' && g.kind !== 'and'))) return false;
  const kids: QueryNode[] = 'children' in n ? n.children : 'child' in n ? [n.child] : n.kind === 'maybe' ? [n.left, n.right] : [];
  return kids.every(printable);
}

describe('toText properties', () => {
  it('parseQuery throws nothing but SearchError', () => {
    fc.assert(fc.property(fc.oneof(soup, query, fc.string({ maxLength: 30 })), (q) => {
      parsesOrNull(q);
    }), { numRuns: Number(process.env.QUERY_RUNS ?? 600) });
  });

  it('printing a parsed tree and parsing it again gives the same tree', () => {
    fc.assert(fc.property(fc.oneof(query, soup), (q) => {
      const first = parsesOrNull(q);
      fc.pre(first !== null && printable(first));
      const again = parseQuery(toText(first!), OPTS).root;
      expect(strip(again)).toEqual(strip(first!));
    }), { numRuns: Number(process.env.QUERY_RUNS ?? 600) });
  });

  it('printing is stable: print(parse(print(t))) equals print(t)', () => {
    fc.assert(fc.property(query, (q) => {
      const first = parsesOrNull(q);
      fc.pre(first !== null && printable(first));
      const text = toText(first!);
      expect(toText(parseQuery(text, OPTS).root)).toBe(text);
    }), { numRuns: 300 });
  });
});
