/**
 * A lean reply as one buffer: status line and headers precomputed per status and Content-Type, the
 * Date header cached per second, the body encoded straight after them, so a reply is one write.
 * The headers are node:http's for the same reply, in its order: `Content-Type`, `Content-Length`,
 * `Date`, then `Connection: keep-alive` with `Keep-Alive: timeout=N` or `Connection: close`.
 */
import { STATUS_CODES } from 'node:http';

let cachedDate: string | undefined;

/** `Date: ...` as node:http caches it: formatted once per second, dropped by an unref'd timer. */
function dateLine(): string {
  if (cachedDate === undefined) {
    const now = new Date();
    cachedDate = `\r\nDate: ${now.toUTCString()}`;
    setTimeout(() => { cachedDate = undefined; }, 1000 - now.getMilliseconds()).unref();
  }
  return cachedDate;
}

const prefixes = new Map<string, string>();

/** `HTTP/1.1 200 OK\r\nContent-Type: ...\r\nContent-Length: `, built once per status and type. */
function prefixOf(status: number, contentType: string): string {
  const key = `${status} ${contentType}`;
  let p = prefixes.get(key);
  if (p === undefined) {
    p = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}\r\nContent-Type: ${contentType}\r\nContent-Length: `;
    prefixes.set(key, p);
  }
  return p;
}

/** What follows the Date: the connection's fate and the blank line. */
export function connectionTail(close: boolean, keepAliveTimeoutMs: number): string {
  if (close) return '\r\nConnection: close\r\n\r\n';
  const keepAlive = keepAliveTimeoutMs ? `\r\nKeep-Alive: timeout=${Math.floor(keepAliveTimeoutMs / 1000)}` : '';
  return `\r\nConnection: keep-alive${keepAlive}\r\n\r\n`;
}

/** The whole reply, head and UTF-8 body, in one buffer. */
export function replyBytes(status: number, contentType: string, body: string, tail: string): Buffer {
  const bodyBytes = Buffer.byteLength(body, 'utf8');
  const head = `${prefixOf(status, contentType)}${bodyBytes}${dateLine()}${tail}`;
  const out = Buffer.allocUnsafe(head.length + bodyBytes);
  out.write(head, 0, 'latin1');
  out.write(body, head.length, 'utf8');
  return out;
}
