/**
 * `_source` include / exclude patterns as searchd matches them (sphinxutils.cpp sphWildcardMatch): `*` any
 * run of characters, `?` exactly one, `%` zero or one, `\` takes the next character literally; case-
 * insensitive here (searchd compares bytes, and its attribute names are lower case).
 */

/**
 * `*`-only patterns without a RegExp: a pattern of any length is a few substring searches (a 300 kB pattern
 * made V8 refuse the RegExp as too large; fuzzer found).
 */
function starMatch(pattern: string, text: string): boolean {
  const parts = pattern.split('*');
  const first = parts[0]!;
  if (parts.length === 1) return text === first;
  const last = parts[parts.length - 1]!;
  if (!text.startsWith(first) || text.length < first.length + last.length || !text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const found = text.indexOf(parts[i]!, at);
    if (found < 0 || found + parts[i]!.length > end) return false;
    at = found + parts[i]!.length;
  }
  return true;
}

type Step = { kind: 'char'; c: string } | { kind: 'one' } | { kind: 'opt' } | { kind: 'any' };

function steps(pattern: string): Step[] {
  const out: Step[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) out.push({ kind: 'char', c: pattern[++i]! });
    else if (c === '?') out.push({ kind: 'one' });
    else if (c === '%') out.push({ kind: 'opt' });
    else if (c === '*') out.push({ kind: 'any' });
    else out.push({ kind: 'char', c });
  }
  return out;
}

/**
 * The pattern's steps run as a set of positions over the name (no backtracking): the time is the name's
 * length times the pattern's, and names are short.
 */
function stepMatch(pattern: string, text: string): boolean {
  const st = steps(pattern);
  let at: Uint8Array = new Uint8Array(st.length + 1);
  const close = (set: Uint8Array): Uint8Array => {
    // a position before `*` or `%` may also skip it (zero characters)
    for (let i = 0; i < st.length; i++) if (set[i] && (st[i]!.kind === 'any' || st[i]!.kind === 'opt')) set[i + 1] = 1;
    return set;
  };
  at[0] = 1;
  close(at);
  for (const ch of text) {
    const next = new Uint8Array(st.length + 1);
    for (let i = 0; i < st.length; i++) {
      if (!at[i]) continue;
      const s = st[i]!;
      if (s.kind === 'any') next[i] = 1;
      if (s.kind === 'one' || s.kind === 'opt' || s.kind === 'any' || (s.kind === 'char' && s.c === ch)) next[i + 1] = 1;
    }
    at = close(next);
  }
  return at[st.length] === 1;
}

/** Whether `name` matches the `_source` pattern. */
export function sourcePatternMatch(pattern: string, name: string): boolean {
  const p = pattern.toLowerCase();
  const text = name.toLowerCase();
  return /[?%\\]/.test(p) ? stepMatch(p, text) : starMatch(p, text);
}
