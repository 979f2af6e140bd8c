/**
 * REGEX()'s pattern (RE2's syntax in searchd) as a JavaScript RegExp that runs in linear time, as RE2
 * does. V8's backtracking engine takes exponential time on patterns like '(a+)+$' over a long value,
 * and REGEX() runs on the event loop: one SELECT would stall every connection of the server for minutes.
 * V8's linear engine (Node 20: no 'u' and no 'i' flag) takes over a match that backtracks too much, and
 * a pattern it cannot run (backreferences, lookaround: RE2 has neither) is refused as invalid.
 */
// the V8 flags that enable the linear engine are set where user patterns are built
import { LINEAR_REGEXP } from '../../util/pattern-regexp.js';
import { hasUnicodeClass, spellUnicodeClasses } from './unicode-class.js';

/** The other case of a letter, or '' (one code unit each way only: a class needs single characters). */
function otherCase(c: string): string {
  const lo = c.toLowerCase();
  const up = c.toUpperCase();
  const o = c === lo ? up : lo;
  return o !== c && o.length === 1 ? o : '';
}

/** A character class body with each letter's and each same-case letter range's other case added. */
function foldClass(body: string): string {
  let extra = '';
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') { i++; continue; }
    const c = body[i]!;
    if (body[i + 1] === '-' && i + 2 < body.length && body[i + 2] !== '\\') {
      const to = body[i + 2]!;
      if (/[a-z]/.test(c) && /[a-z]/.test(to) || /[A-Z]/.test(c) && /[A-Z]/.test(to)) extra += `${otherCase(c)}-${otherCase(to)}`;
      i += 2;
      continue;
    }
    const o = otherCase(c);
    if (o && o !== '\\' && o !== ']' && o !== '^' && o !== '-') extra += o;
  }
  return body + extra;
}

/**
 * RE2's case-insensitive flag spelled out: each letter becomes a class of both cases (the linear
 * engine has no 'i' flag). Escapes are copied as they are, classes get their letters' other cases.
 */
export function foldCase(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') { out += source.slice(i, i + 2); i++; continue; }
    if (c === '[') {
      let j = i + 1;
      if (source[j] === '^') j++;
      if (source[j] === ']') j++;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      if (j >= source.length) return source; // an unclosed class: the RegExp refuses it as it is
      const open = source[i + 1] === '^' ? '[^' : '[';
      out += open + foldClass(source.slice(i + open.length, j)) + ']';
      i = j;
      continue;
    }
    if (c === '(' && source.startsWith('(?<', i) && !/^\(\?<[=!]/.test(source.slice(i))) {
      const end = source.indexOf('>', i); // a group name stays as it is
      if (end > 0) { out += source.slice(i, end + 1); i = end; continue; }
    }
    if (c === '{' && /^\{\d*(,\d*)?\}/.test(source.slice(i))) {
      const end = source.indexOf('}', i);
      out += source.slice(i, end + 1);
      i = end;
      continue;
    }
    const o = otherCase(c);
    out += o ? `[${c}${o}]` : c;
  }
  return out;
}

/**
 * RE2's leading flag groups `(?i)`, `(?s)`, `(?m)` (or several, `(?is)`, `(?i)(?s)`) become the RegExp's flags
 * ('i' spelled out, see foldCase); anything else RE2-only stays an invalid pattern (README: REGEX()).
 * Throws when the pattern is invalid or cannot run in linear time.
 */
export function re2Pattern(source: string): RegExp {
  // one leading group or several in a row ('(?i)(?s)x', as RE2 takes them)
  const lead = /^(?:\(\?[ims]+\))+/.exec(source);
  const flags = [...new Set((lead?.[0] ?? '').replace(/[^ims]/g, ''))].join('');
  const body = lead ? source.slice(lead[0].length) : source;
  // a Unicode property class (\p{L}) needs the 'u' flag, which the linear engine lacks in Node 20:
  // spelled out as plain classes instead, so '(\p{L}+)+$' cannot backtrack for ever (unicode-class.ts)
  const plain = hasUnicodeClass(body) ? spellUnicodeClasses(body, flags.includes('i')) : body;
  const linear = flags.includes('i') ? foldCase(plain) : plain;
  const rest = flags.replace('i', '');
  if (LINEAR_REGEXP) new RegExp(linear, `${rest}l`); // throws on what the linear engine cannot run (and on invalid syntax)
  return new RegExp(linear, rest);
}
