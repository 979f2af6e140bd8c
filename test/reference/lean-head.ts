// The lean server's head reader as first written (one string per line, a regular expression per line):
// the byte-wise reader in src/http/lean/request-head.ts must answer every head as this does.
import { HEAD_INCOMPLETE, NOT_LEAN, type LeanHead } from '../../src/http/lean/request-head.js';

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
export function readLeanHeadByLines(buf: Buffer, start: number, maxHeadBytes: number): LeanHead | typeof HEAD_INCOMPLETE | typeof NOT_LEAN {
  const end = buf.indexOf(CRLF2, start);
  if (end < 0) return buf.length - start > maxHeadBytes ? NOT_LEAN : HEAD_INCOMPLETE;
  if (end - start > maxHeadBytes) return NOT_LEAN;
  const lines = buf.toString('latin1', start, end).split('\r\n');
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
  return {
    headBytes: end + 4 - start, url: target, path: q < 0 ? target : target.slice(0, q), urlQuery: q < 0 ? '' : target.slice(q + 1),
    contentLength: length, close, contentType,
  };
}
