// readLeanHead takes only the heads it can answer as node:http would, and reads them exactly.
import { describe, expect, it } from 'vitest';
import { HEAD_INCOMPLETE, NOT_LEAN, readLeanHead } from '../../../../src/http/lean/request-head.js';

const read = (text: string, max = 1 << 20) => readLeanHead(Buffer.from(text, 'latin1'), 0, max);

describe('readLeanHead', () => {
  it('reads a POST head: target, length, connection, content type', () => {
    const text = 'POST /sql?mode=raw HTTP/1.1\r\nHost: x\r\ncontent-type: a\r\nContent-Length:  12 \r\nContent-Type: b\r\n\r\nbody';
    expect(read(text)).toEqual({
      headBytes: text.indexOf('body'), url: '/sql?mode=raw', path: '/sql', urlQuery: 'mode=raw', contentLength: 12, close: false, contentType: 'a, b',
    });
    expect(read('POST /search HTTP/1.1\r\nHost: x\r\nConnection: CLOSE\r\nContent-Length: 0\r\n\r\n')).toMatchObject({ path: '/search', urlQuery: '', close: true });
  });

  it('reads a head after `start` of the buffer', () => {
    const buf = Buffer.from('xxPOST /sql HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\n1');
    expect(readLeanHead(buf, 2, 1000)).toMatchObject({ headBytes: buf.length - 3, contentLength: 1 });
  });

  it('says a head without its blank line is incomplete, unless it is already over the limit', () => {
    expect(read('POST /sql HTTP/1.1\r\nHost: x\r\n')).toBe(HEAD_INCOMPLETE);
    expect(read('POST /sql HTTP/1.1\r\nHost: x\r\n', 10)).toBe(NOT_LEAN);
    expect(read('POST /sql HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\n', 20)).toBe(NOT_LEAN);
  });

  it.each([
    'GET /sql HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\n',
    'POST /sql HTTP/1.0\r\nHost: x\r\nContent-Length: 1\r\n\r\n',
    'POST  /sql HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\n',
    'POST sql HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\n',
    'POST /sql#x HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\n',
    'POST /sql HTTP/1.1\r\nContent-Length: 1\r\n\r\n',
    'POST /sql HTTP/1.1\r\nHost: \r\nContent-Length: 1\r\n\r\n',
    'POST /sql HTTP/1.1\r\nHost: x\r\n\r\n',
    'POST /sql HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
    'POST /sql HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n',
    'POST /sql HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n',
    'POST /sql HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nExpect: 100-continue\r\n\r\n',
    'POST /sql HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nUpgrade: h2c\r\n\r\n',
    'POST /sql HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nConnection: keep-alive, Upgrade\r\n\r\n',
    'POST /sql HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n folded\r\n\r\n',
    'POST /sql HTTP/1.1\r\nHost: x\nContent-Length: 1\r\n\r\n',
    'POST /sql HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nX-Y: caf\xe9\r\n\r\n',
    'POST /sql HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nBad Name: 1\r\n\r\n',
    '\r\nPOST /sql HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\n',
  ])('leaves %j to node:http', (text) => {
    expect(read(text)).toBe(NOT_LEAN);
  });
  it('reads a head met before as the first time, from wherever it starts, and each length as its own', () => {
    const head = (n: number) => `POST /search?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nContent-Length: ${n}\r\n\r\n`;
    const first = read(head(12));
    expect(read(head(12))).toEqual(first);
    expect(readLeanHead(Buffer.from(`ab${head(12)}`, 'latin1'), 2, 1000)).toEqual(first);
    expect(read(head(13))).toMatchObject({ contentLength: 13, path: '/search', urlQuery: 'x=1' });
    expect(read(head(12))).toMatchObject({ contentLength: 12 });
    // a head under the limit once is over a lower one: the limit is checked before any kept head
    expect(read(head(12), 20)).toBe(NOT_LEAN);
    // more heads than are kept: each still read right
    for (let n = 0; n < 1500; n++) expect(read(head(n))).toMatchObject({ contentLength: n });
  });

  it('never keeps a refused head as taken', () => {
    const bad = 'POST /sql HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nExpect: 100-continue\r\n\r\n';
    expect(read(bad)).toBe(NOT_LEAN);
    expect(read(bad)).toBe(NOT_LEAN);
  });
});
