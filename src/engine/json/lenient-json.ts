/**
 * The JSON that searchd takes in a JSON attribute value but strict JSON refuses, rewritten as strict
 * JSON text. Manticore's own parser (src/sphinxjson.l, sphinxjson.y) reads:
 * - strings in single quotes as well as double, with C-like escapes (\b \n \r \t \f \uXXXX; any other
 *   escaped character is itself, so \' is ') and raw control characters inside;
 * - an identifier ([A-Za-z_][A-Za-z_0-9]*) as an object key: {k:1};
 * - true, false and null in any letter case;
 * - numbers with a leading '+', '.5', '5.', '5.e3' and leading zeros;
 * - comments from '//' or '#' to the end of the line.
 * Anything else (a trailing comma, an identifier as a value) stays an error: undefined here.
 */

const ID = /[A-Za-z_][A-Za-z_0-9]*/y;
const NUMBER = /[+-]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?/y;

function unescape(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\' || i + 1 >= body.length) { out += ch; continue; }
    const e = body[++i]!;
    switch (e) {
      case 'b': out += '\b'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'f': out += '\f'; break;
      case 'u': {
        const hex = body.slice(i + 1, i + 5);
        if (/^[0-9a-fA-F]{4}$/.test(hex)) { out += String.fromCharCode(parseInt(hex, 16)); i += 4; } else out += 'u';
        break;
      }
      default: out += e;
    }
  }
  return out;
}

/** A number token as strict JSON: no '+', no leading zeros, digits on both sides of the point. */
function strictNumber(tok: string): string {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?([eE][+-]?\d+)?$/.exec(tok)!;
  const sign = m[1] === '-' ? '-' : '';
  const int = (m[2] ?? '').replace(/^0+(?=\d)/, '') || '0';
  const frac = m[3] === undefined ? '' : `.${m[3] || '0'}`;
  return `${sign}${int}${frac}${m[4] ?? ''}`;
}

/** Strict JSON text for searchd's lenient forms; undefined when a character is not one of them. */
export function lenientToStrict(text: string): string | undefined {
  let out = '';
  let i = 0;
  // a bare identifier was just written as a key: the next token (past blanks and comments) must be ':'
  let keyOpen = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') { i++; continue; }
    if (ch === '#' || (ch === '/' && text[i + 1] === '/')) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl + 1;
      continue;
    }
    if (keyOpen && ch !== ':') return undefined;
    keyOpen = false;
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== ch) j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) return undefined;
      out += JSON.stringify(unescape(text.slice(i + 1, j)));
      i = j + 1;
      continue;
    }
    if ('{}[]:,'.includes(ch)) { out += ch; i++; continue; }
    NUMBER.lastIndex = i;
    const num = NUMBER.exec(text);
    if (num) { out += strictNumber(num[0]); i += num[0].length; continue; }
    ID.lastIndex = i;
    const id = ID.exec(text);
    if (!id) return undefined;
    const word = id[0].toLowerCase();
    i += id[0].length;
    if (word === 'true' || word === 'false' || word === 'null') { out += word; continue; }
    // any other identifier is a key: one before a ':' only
    out += JSON.stringify(id[0]);
    keyOpen = true;
  }
  // the grammar's root is an object or an array
  return !keyOpen && (out.startsWith('{') || out.startsWith('[')) ? out : undefined;
}
