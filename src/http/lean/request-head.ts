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
/** `POST`, a target of path and query characters only (no `#`, quotes, brackets, spaces or controls), HTTP/1.1. */
const REQUEST_LINE = /^POST (\/[-A-Za-z0-9._~%!$&'()*+,;=:@/?]*) HTTP\/1\.1$/;
/** A header line: a token, a colon, visible ASCII, spaces and tabs (no obs-text, no controls). */
const HEADER_LINE = /^[-!#$%&'*+.^_`|~0-9A-Za-z]+:[\t\x20-\x7e]*$/;
const DIGITS = /^[0-9]{1,15}$/;

/** Header value without the optional whitespace around it, as llhttp hands it over. */
function valueOf(line: string, colon: number): string {
  return line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
}

/**
 * Reads the head at `start` of `buf`: a LeanHead, HEAD_INCOMPLETE or NOT_LEAN. `maxHeadBytes` is
 * node:http's limit: a longer head is node's to refuse (431).
 */
export function readLeanHead(buf: Buffer, start: number, maxHeadBytes: number): LeanHead | typeof HEAD_INCOMPLETE | typeof NOT_LEAN {
  const end = buf.indexOf(CRLF2, start);
  if (end < 0) return buf.length - start > maxHeadBytes ? NOT_LEAN : HEAD_INCOMPLETE;
  if (end - start > maxHeadBytes) return NOT_LEAN;
  const text = buf.toString('latin1', start, end);
  const known = text.length <= MAX_KEPT_HEAD ? heads.get(text) : undefined;
  if (known !== undefined) return known;
  const head = parseHead(text);
  if (head !== NOT_LEAN && text.length <= MAX_KEPT_HEAD) {
    if (heads.size >= MAX_KEPT_HEADS) heads.clear();
    heads.set(text, head);
  }
  return head;
}

/**
 * Heads already read, by their text: a client sends the same head for every request of a body length
 * (node:http's and the benches' clients differ only in Content-Length), and reading one by the
 * regular expressions below cost ~4-10 us a request, a Map look-up of its text well under 1. The head
 * is all a LeanHead depends on, and no caller changes one (they are frozen). Heads of at most
 * MAX_KEPT_HEAD characters, at most MAX_KEPT_HEADS of them (then started over): 512 KiB at most.
 */
const heads = new Map<string, Readonly<LeanHead>>();
const MAX_KEPT_HEAD = 1024;
const MAX_KEPT_HEADS = 512;

function parseHead(text: string): Readonly<LeanHead> | typeof NOT_LEAN {
  const lines = text.split('\r\n');
  const target = REQUEST_LINE.exec(lines[0]!)?.[1];
  if (target === undefined) return NOT_LEAN;
  let length: number | undefined;
  let host = false;
  let close = false;
  let contentType: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!HEADER_LINE.test(line)) return NOT_LEAN;
    const colon = line.indexOf(':');
    switch (line.slice(0, colon).toLowerCase()) {
      case 'content-length': {
        const v = valueOf(line, colon);
        if (length !== undefined || !DIGITS.test(v)) return NOT_LEAN;
        length = Number(v);
        break;
      }
      case 'host':
        if (valueOf(line, colon) !== '') host = true;
        break;
      case 'connection': {
        const v = valueOf(line, colon).toLowerCase();
        if (v === 'close') close = true;
        else if (v !== 'keep-alive') return NOT_LEAN;
        break;
      }
      case 'content-type': {
        const v = valueOf(line, colon);
        contentType = contentType === undefined ? v : `${contentType}, ${v}`;
        break;
      }
      case 'transfer-encoding':
      case 'expect':
      case 'upgrade':
        return NOT_LEAN;
      default:
        break;
    }
  }
  if (length === undefined || !host) return NOT_LEAN;
  const q = target.indexOf('?');
  return Object.freeze({
    headBytes: text.length + 4, url: target, path: q < 0 ? target : target.slice(0, q), urlQuery: q < 0 ? '' : target.slice(q + 1),
    contentLength: length, close, contentType,
  });
}
