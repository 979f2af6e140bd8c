/**
 * A light look at SphinxQL text for `/sql` without mode, which accepts one SELECT only and must say so
 * before anything runs: splits on `;` outside quotes and comments and names each statement's verb.
 */

/** Statement verbs that are certainly not a SELECT: `/sql` refuses them without running anything. */
const NON_SELECT_VERBS = new Set([
  'insert', 'replace', 'update', 'delete', 'truncate', 'create', 'drop', 'alter', 'show', 'desc',
  'describe', 'set', 'call', 'flush', 'optimize', 'begin', 'commit', 'rollback', 'start', 'attach',
  'import', 'explain', 'kill', 'reload', 'backup', 'freeze', 'unfreeze', 'lock', 'unlock', 'join', 'use',
]);

export interface StatementInfo {
  /** The first word, lowercased ('' when the statement starts with something else). */
  verb: string;
  text: string;
}

/** Skips a quoted literal starting at `i` (the quote); returns the index after its closing quote. */
function skipQuoted(sql: string, i: number): number {
  const quote = sql[i];
  for (let j = i + 1; j < sql.length; j++) {
    if (sql[j] === '\\') j++;
    else if (sql[j] === quote) return j + 1;
  }
  return sql.length;
}

/** Index after a comment starting at `i`, or `i` when none starts there. */
function skipComment(sql: string, i: number): number {
  if (sql.startsWith('/*', i)) {
    const end = sql.indexOf('*/', i + 2);
    return end < 0 ? sql.length : end + 2;
  }
  if (sql[i] === '#' || sql.startsWith('-- ', i) || sql.startsWith('--\n', i)) {
    const end = sql.indexOf('\n', i);
    return end < 0 ? sql.length : end + 1;
  }
  return i;
}

/** Index of the first character that is neither white space nor part of a comment. */
function skipBlank(text: string): number {
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    const next = skipComment(text, i);
    if (next === i) return i;
    i = next;
  }
}

/** The statements of `sql`, empty ones (a trailing `;`) left out. */
export function splitStatements(sql: string): StatementInfo[] {
  const out: StatementInfo[] = [];
  let start = 0;
  let i = 0;
  const push = (end: number) => {
    const text = sql.slice(start, end).trim();
    const body = skipBlank(text);
    if (body >= text.length) return; // empty, or only comments
    const m = /^[A-Za-z_]+/.exec(text.slice(body));
    out.push({ verb: m ? m[0].toLowerCase() : '', text });
  };
  while (i < sql.length) {
    const ch = sql[i]!;
    if (ch === "'" || ch === '"' || ch === '`') {
      i = skipQuoted(sql, i);
      continue;
    }
    const afterComment = skipComment(sql, i);
    if (afterComment !== i) {
      i = afterComment;
      continue;
    }
    if (ch === ';') {
      push(i);
      start = i + 1;
    }
    i++;
  }
  push(sql.length);
  return out;
}

/** Whether a verb is known not to start a SELECT (an unknown verb is left to the parser's error). */
export function isNonSelectVerb(verb: string): boolean {
  return NON_SELECT_VERBS.has(verb);
}
