/**
 * A lean reply as one write: status line and headers precomputed per status and Content-Type, the
 * Date header cached per second, the body encoded straight after them, so a reply is one write.
 * The headers are node:http's for the same reply, in its order: `Content-Type`, `Content-Length`,
 * `Date`, then `Connection: keep-alive` with `Keep-Alive: timeout=N` or `Connection: close`.
 */
import { STATUS_CODES } from 'node:http';
import { ByteSink, type BodyWriter } from '../reply-sink.js';

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

/** The last prefix built or found, by its status and type: replies in a row mostly share both (no key string made). */
let last = { status: 0, contentType: '', prefix: '' };

/** `HTTP/1.1 200 OK\r\nContent-Type: ...\r\nContent-Length: `, built once per status and type. */
function prefixOf(status: number, contentType: string): string {
  if (last.status === status && last.contentType === contentType) return last.prefix;
  const key = `${status} ${contentType}`;
  let p = prefixes.get(key);
  if (p === undefined) {
    p = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}\r\nContent-Type: ${contentType}\r\nContent-Length: `;
    prefixes.set(key, p);
  }
  last = { status, contentType, prefix: p };
  return p;
}

/** The keep-alive tail of the last timeout asked for (the server's setting: the same for every reply). */
let keepAliveTail = { ms: -1, tail: '' };

/** What follows the Date: the connection's fate and the blank line. */
export function connectionTail(close: boolean, keepAliveTimeoutMs: number): string {
  if (close) return '\r\nConnection: close\r\n\r\n';
  if (keepAliveTail.ms === keepAliveTimeoutMs) return keepAliveTail.tail;
  const keepAlive = keepAliveTimeoutMs ? `\r\nKeep-Alive: timeout=${Math.floor(keepAliveTimeoutMs / 1000)}` : '';
  keepAliveTail = { ms: keepAliveTimeoutMs, tail: `\r\nConnection: keep-alive${keepAlive}\r\n\r\n` };
  return keepAliveTail.tail;
}

/** Room before the body in the scratch buffer for the status line and headers. */
const HEAD_ROOM = 512;
/**
 * Where replies are encoded: the body is written once, straight from the (often unflattened) string,
 * without measuring its UTF-8 length first (measured: 65 of 235 us to encode a 42 kB reply). It is
 * reused while the kernel takes each reply whole; a reply still queued keeps it and a new one is made.
 */
let scratch: Buffer | undefined;
/** Replies that could need more than this are encoded into a buffer of their exact size instead. */
const MAX_SCRATCH_BYTES = 4 << 20;

/**
 * Writes the whole reply, head and UTF-8 body, as one write on `socket`: text is encoded, a BodyWriter
 * writes its bytes, straight into the buffer after the room for the head.
 */
export function writeReply(
  socket: { write(b: Buffer): boolean; readonly writableLength: number }, status: number, contentType: string, body: string | BodyWriter, tail: string,
): void {
  let out: Buffer;
  let bodyBytes: number;
  let large: boolean;
  if (typeof body === 'string') {
    const most = HEAD_ROOM + body.length * 3; // UTF-8 takes at most 3 bytes per UTF-16 unit
    large = most > MAX_SCRATCH_BYTES;
    if (!large && (scratch === undefined || scratch.length < most)) scratch = Buffer.allocUnsafe(Math.max(most, 1 << 16));
    out = large ? Buffer.allocUnsafe(HEAD_ROOM + Buffer.byteLength(body, 'utf8')) : scratch!;
    bodyBytes = out.write(body, HEAD_ROOM, 'utf8');
  } else {
    const sink = new ByteSink(scratch ?? Buffer.allocUnsafe(1 << 16), HEAD_ROOM);
    body(sink);
    out = sink.buffer;
    bodyBytes = sink.end - HEAD_ROOM;
    large = out.length > MAX_SCRATCH_BYTES;
    if (!large) scratch = out; // grown for this reply: kept for the next ones
  }
  const head = `${prefixOf(status, contentType)}${bodyBytes}${dateLine()}${tail}`;
  if (head.length > HEAD_ROOM) throw new Error(`reply head of ${head.length} bytes`);
  const start = HEAD_ROOM - head.length;
  out.write(head, start, 'latin1');
  socket.write(out.subarray(start, HEAD_ROOM + bodyBytes));
  // the write is queued, not all in the kernel yet: the buffer is the socket's now
  if (!large && socket.writableLength > 0) scratch = undefined;
}
