/**
 * Prints a query tree back as extended query syntax. For trees the parser made, parsing the text
 * gives the same tree again (query positions aside: they follow from where the words are printed).
 */
import type { FieldLimit, PhraseNode, QueryNode, TermNode } from './ast.js';
import { isNameChar } from './field-spec.js';

/** Word starts the lexer reads as operators; such a word is printed with its first letter escaped. */
const OPERATOR_WORD = /^(NEAR\/[0-9]|NOTNEAR\/[0-9]|SENTENCE$|PARAGRAPH$|MAYBE$|ZONE:|ZONESPAN:)/;

export function toText(node: QueryNode): string {
  if (node.kind === 'empty') return '';
  return print(node);
}

function print(node: QueryNode): string {
  switch (node.kind) {
    case 'term': return scoped(node.field, termText(node));
    case 'phrase': case 'proximity': case 'quorum': return scoped(node.field, quotedText(node));
    case 'and': return node.children.length ? node.children.map((c) => (c.kind === 'not' ? print(c) : operand(c))).join(' ') : '()';
    case 'or': return node.children.length ? node.children.map(operand).join(' | ') : '()';
    case 'not': return `-${operand(node.child)}`;
    case 'maybe': return `${operand(node.left)} MAYBE ${operand(node.right)}`;
    case 'order': return node.children.map(operand).join(' << ');
    case 'near': return nearText(node);
    case 'sentence': case 'paragraph': return spanText(node.kind, node.children);
    case 'zone': return `(${node.span ? 'ZONESPAN' : 'ZONE'}:(${node.zones.join(',')}) ${print(node.child)})`;
    case 'empty': return '()';
  }
}

/**
 * A NEAR chain. A first operand that is a NEAR of the same distance would merge into the chain when
 * read back, so it goes into a group with the next operands (NEAR spreads a group's words out).
 */
function nearText(node: Extract<QueryNode, { kind: 'near' }>): string {
  const op = ` ${node.negate ? 'NOTNEAR' : 'NEAR'}/${node.distance} `;
  const [first, ...rest] = node.children;
  const merges = !node.negate && first?.kind === 'near' && !first.negate && first.distance === node.distance;
  if (merges && rest.length) return `(${[first, ...rest.slice(0, -1)].map(operand).join(' ')})${op}${operand(rest[rest.length - 1]!)}`;
  return node.children.map(operand).join(op);
}

/**
 * An operand of an operator: leaves as they are, anything else in parentheses. A phrase with `*`
 * gaps gets parentheses too: Manticore forgets the gaps when another phrase follows it directly.
 */
function operand(node: QueryNode): string {
  const text = print(node);
  if (node.kind === 'phrase' && node.offsets.some((o, i) => o !== i) && !node.field) return `(${text})`;
  const leaf = node.kind === 'term' || node.kind === 'phrase' || node.kind === 'proximity' || node.kind === 'quorum';
  return leaf || node.kind === 'zone' || text === '()' ? text : `(${text})`;
}

/** A field limit lasts to the end of its group, so a limited leaf gets a group of its own. */
function scoped(field: FieldLimit | undefined, text: string): string {
  return field ? `(${fieldText(field)} ${text})` : text;
}

export function fieldText(f: FieldLimit): string {
  const pos = f.maxPos ? `[${f.maxPos}]` : '';
  if (!f.exclude && f.fields.length === 0) return '@*';
  const bang = f.exclude ? '!' : '';
  const simple = f.fields.length === 1 && [...f.fields[0]!].every((c) => isNameChar(c));
  return simple ? `@${bang}${f.fields[0]}${pos}` : `@${bang}(${f.fields.join(',')})${pos}`;
}

export function termText(t: TermNode): string {
  let s = t.exact ? '=' : '';
  if (t.fieldStart) s += '^';
  s += OPERATOR_WORD.test(t.text) ? `\\${t.text}` : t.text;
  if (t.fieldEnd) s += '$';
  if (t.boost !== undefined) s += `^${t.boost}`;
  return s;
}

/** Phrase words with `*` for each skipped position. */
function phraseWords(terms: TermNode[], offsets?: number[]): string {
  const parts: string[] = [];
  terms.forEach((t, i) => {
    const gap = offsets && i > 0 ? offsets[i]! - offsets[i - 1]! - 1 : 0;
    for (let g = 0; g < gap; g++) parts.push('*');
    parts.push(termText(t));
  });
  return parts.join(' ');
}

function quotedText(node: Extract<QueryNode, { kind: 'phrase' | 'proximity' | 'quorum' }>): string {
  if (node.kind === 'phrase') return `"${phraseWords(node.terms, (node as PhraseNode).offsets)}"`;
  if (node.kind === 'proximity') return `"${phraseWords(node.terms)}"~${node.distance}`;
  const f = node.fraction;
  const arg = f === undefined ? String(node.threshold) : Number.isInteger(f) ? f.toFixed(1) : String(f);
  return `"${phraseWords(node.terms)}"/${arg}`;
}

/** SENTENCE / PARAGRAPH operands are words or phrases; an OR of words is a phrase of one group. */
function spanText(kind: 'sentence' | 'paragraph', operands: QueryNode[]): string {
  // Zone and field limits cannot stand inside the chain: one common limit goes before it.
  const z0 = operands[0];
  const zone = z0?.kind === 'zone' && operands.every((c) => c.kind === 'zone' && c.span === z0.span && c.zones.join() === z0.zones.join()) ? z0 : undefined;
  const children = zone ? operands.map((c) => (c.kind === 'zone' ? c.child : c)) : operands;
  const first = children[0];
  const field = first && 'field' in first ? first.field : undefined;
  const item = (c: QueryNode): string => {
    if (c.kind === 'term') return termText(c);
    if (c.kind === 'phrase') return quotedText(c);
    if (c.kind === 'or') return `"(${c.children.map(alternative).join(' | ')})"`;
    return `(${print(c)})`;
  };
  const text = scoped(field, children.map(item).join(` ${kind.toUpperCase()} `));
  return zone ? `(${zone.span ? 'ZONESPAN' : 'ZONE'}:(${zone.zones.join(',')}) ${text})` : text;
}

function alternative(c: QueryNode): string {
  if (c.kind === 'term') return termText(c);
  if (c.kind === 'and') return c.children.map(alternative).join(' ');
  return print(c);
}
