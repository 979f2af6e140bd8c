/** A RegExp built from a user's pattern (LIKE, wildcard keywords), or a query error when V8 refuses it. */
import { SearchError } from './errors.js';

// V8's linear-time engine takes over a match that backtracks too much (a RegExp without the 'i' and 'u'
// flags, in Node 20), and runs a RegExp with the 'l' flag: a user's pattern ('*a*a*a...b', '(a+)+$') must
// not hold the event loop, which serves every connection, for minutes. Read when a RegExp is compiled.
// Asked of the running Node, not imported: the browser build bundles this file and has no node:v8.
type V8 = { setFlagsFromString(flags: string): void };
const v8 = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:v8') as V8 | undefined;
v8?.setFlagsFromString('--enable-experimental-regexp-engine');
v8?.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
/** Whether V8's linear engine is on (the 'l' flag exists): not in a browser. */
export const LINEAR_REGEXP = v8 !== undefined;

/**
 * V8 refuses a RegExp past its size limit ("Regular expression too large") with a SyntaxError, which
 * would surface as an internal error: a pattern that long is the user's error, said as such.
 */
export function patternRegExp(source: string, flags: string, what: string): RegExp {
  try {
    const rx = new RegExp(source, flags);
    // V8 compiles on first use, once for one-byte and once for two-byte subjects: both now, so a
    // refusal is caught here and not at some later test()
    rx.test('');
    rx.test('\u0100');
    return rx;
  } catch {
    throw new SearchError('QUERY_ERROR', `${what} is too long or too complex (${source.length} characters)`);
  }
}
