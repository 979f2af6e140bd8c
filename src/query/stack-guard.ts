/**
 * A query nested deeper than the host's stack allows: Manticore measures the tree against its
 * thread stack and answers `query too complex, not enough stack (thread_stack=NK or higher required)`;
 * here the parser's recursion hits V8's limit, and the same answer replaces the JavaScript RangeError.
 */
import { SearchError } from '../util/errors.js';

/** Manticore's per-node stack estimate and fixed budget (x86-64 build, src/sphinx.cpp). */
const NODE_STACK_BYTES = 0x160;
const EXTRA_BUDGET_BYTES = 0x2000 + 8 * 1024;

/** Deepest bracket nesting of the query text (escaped brackets and quoted text skipped). */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') { i++; continue; }
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === '(') max = Math.max(max, ++depth);
    else if (!quoted && c === ')') depth = Math.max(0, depth - 1);
  }
  return max;
}

export function tooComplexError(text: string): SearchError {
  const need = nestingDepth(text) * NODE_STACK_BYTES + EXTRA_BUDGET_BYTES;
  const k = Math.ceil((need + 1) / 1024);
  return new SearchError('QUERY_ERROR', `query too complex, not enough stack (thread_stack=${k}K or higher required)`);
}

/**
 * Runs `fn` (parse, fix-ups, normalization of the query), turning a stack overflow into Manticore's
 * error; `text` is asked for only then (a JSON query is serialized only when it overflowed).
 */
export function guardStack<T>(text: string | (() => string), fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) throw tooComplexError(typeof text === 'string' ? text : text());
    throw e;
  }
}
