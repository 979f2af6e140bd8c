/**
 * The one request head the lean server answers itself: `POST <target> HTTP/1.1`, a Host, a decimal
 * Content-Length, `Connection` absent, `keep-alive` or `close`, and nothing that changes the framing
 * or the exchange (Transfer-Encoding, Expect, Upgrade). The grammar is a strict subset of what Node's
 * parser (llhttp) accepts and answers alike, so any head outside it (other methods or versions, obs-fold,
 * bare LF, control bytes, a repeated Content-Length, ...) goes to node:http unread and gets exactly
 * the answer it got before, 400s and 431s included.
 */

/** A head the lean server answers. */
export interface LeanHead {
  /** Bytes of the head, its blank line included: the body starts here. */
  headBytes: number;
  /** The request target as sent (`/sql?mode=raw`), for the activity list. */
  url: string;
  /** The target before `?`. */
  path: string;
  /** The target after `?` ('' without one). */
  urlQuery: string;
  contentLength: number;
  /** `Connection: close`: answer with `Connection: close`, then close. */
  close: boolean;
  /** Content-Type values joined with `, ` (undefined without one). */
  contentType: string | undefined;
}

/** No blank line yet: the head is not all here. */
export const HEAD_INCOMPLETE = 0;
/** A head node:http must answer. */
export const NOT_LEAN = 1;

const CRLF2 = Buffer.from('\r\n\r\n', 'latin1');
const CR = 13, LF = 10, TAB = 9, SPACE = 32, COLON = 58;
/** `POST`, a target of path and query characters only (no `#`, quotes, brackets, spaces or controls), HTTP/1.1. */
const REQUEST_LINE = /^POST (\/[-A-Za-z0-9._~%!$&'()*+,;=:@/?]*) HTTP\/1\.1$/;
/** Bytes of a header name (RFC 9110 tchar): `[-!#$%&'*+.^_`|~0-9A-Za-z]`. */
const TOKEN = new Uint8Array(256);
for (const c of "-!#$%&'*+.^_`|~") TOKEN[c.charCodeAt(0)] = 1;
for (let c = 48; c <= 57; c++) TOKEN[c] = 1;
for (let c = 65; c <= 90; c++) TOKEN[c] = TOKEN[c + 32] = 1;
/** Most digits of a Content-Length taken (llhttp refuses what overflows; longer ones go to node:http). */
const MAX_LENGTH_DIGITS = 15;

/**
 * Whether `buf[from, to)` is `lower` (a header name or value of letters and `-`), ignoring case. `c | 0x20`
 * equals a lower-case letter only for that letter in either case, and `-` only for `-` or CR (never in a line).
 */
function bytesAre(buf: Buffer, from: number, to: number, lower: string): boolean {
  if (to - from !== lower.length) return false;
  for (let i = 0; i < lower.length; i++) if ((buf[from + i]! | 0x20) !== lower.charCodeAt(i)) return false;
  return true;
}

/**
 * Reads the head at `start` of `buf`: a LeanHead, HEAD_INCOMPLETE or NOT_LEAN. `maxHeadBytes` is
 * node:http's limit: a longer head is node's to refuse (431). The header lines are read byte by byte
 * where they lie (no string per line, no regular expression per line: 1.1-3 us a head of five lines
 * before); a header line is a token, a colon, then visible ASCII, spaces and tabs (no obs-text, no
 * controls, so no bare CR or LF).
 */
export function readLeanHead(buf: Buffer, start: number, maxHeadBytes: number): LeanHead | typeof HEAD_INCOMPLETE | typeof NOT_LEAN {
  const end = buf.indexOf(CRLF2, start);
  if (end < 0) return buf.length - start > maxHeadBytes ? NOT_LEAN : HEAD_INCOMPLETE;
  if (end - start > maxHeadBytes) return NOT_LEAN;
  let lineEnd = buf.indexOf(CR, start);
  if (lineEnd < 0 || lineEnd > end) lineEnd = end;
  const target = REQUEST_LINE.exec(buf.toString('latin1', start, lineEnd))?.[1];
  if (target === undefined) return NOT_LEAN;
  let length: number | undefined;
  let host = false;
  let close = false;
  let contentType: string | undefined;
  // lineEnd is at a CR; the request line's regex refused any other control byte before it
  let i = lineEnd;
  while (i < end) {
    if (buf[i + 1] !== LF) return NOT_LEAN;
    const name = i + 2;
    let j = name;
    while (j < end && TOKEN[buf[j]!] === 1) j++;
    if (j === name || j === end || buf[j] !== COLON) return NOT_LEAN;
    const colon = j;
    for (j++; j < end; j++) {
      const c = buf[j]!;
      if (c === CR) break;
      if (c !== TAB && (c < SPACE || c > 0x7e)) return NOT_LEAN;
    }
    // the value without the optional whitespace around it, as llhttp hands it over
    let from = colon + 1;
    let to = j;
    while (from < to && (buf[from] === SPACE || buf[from] === TAB)) from++;
    while (to > from && (buf[to - 1] === SPACE || buf[to - 1] === TAB)) to--;
    switch (colon - name) {
      case 14:
        if (!bytesAre(buf, name, colon, 'content-length')) break;
        if (length !== undefined || to === from || to - from > MAX_LENGTH_DIGITS) return NOT_LEAN;
        length = 0;
        for (let k = from; k < to; k++) {
          const d = buf[k]! - 48;
          if (d < 0 || d > 9) return NOT_LEAN;
          length = length * 10 + d;
        }
        break;
      case 4:
        if (bytesAre(buf, name, colon, 'host') && to > from) host = true;
        break;
      case 10:
        if (!bytesAre(buf, name, colon, 'connection')) break;
        if (bytesAre(buf, from, to, 'close')) close = true;
        else if (!bytesAre(buf, from, to, 'keep-alive')) return NOT_LEAN;
        break;
      case 12:
        if (!bytesAre(buf, name, colon, 'content-type')) break;
        contentType = contentType === undefined ? buf.toString('latin1', from, to) : `${contentType}, ${buf.toString('latin1', from, to)}`;
        break;
      case 17: if (bytesAre(buf, name, colon, 'transfer-encoding')) return NOT_LEAN; break;
      case 6: if (bytesAre(buf, name, colon, 'expect')) return NOT_LEAN; break;
      case 7: if (bytesAre(buf, name, colon, 'upgrade')) return NOT_LEAN; break;
      default:
        break;
    }
    i = j;
  }
  if (length === undefined || !host) return NOT_LEAN;
  const q = target.indexOf('?');
  return {
    headBytes: end + 4 - start, url: target, path: q < 0 ? target : target.slice(0, q), urlQuery: q < 0 ? '' : target.slice(q + 1),
    contentLength: length, close, contentType,
  };
}
