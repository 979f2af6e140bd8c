/**
 * Where a reply renderer (render-search.ts) writes: text pieces, and byte fragments it kept from an
 * earlier reply. TextSink joins text; ByteSink writes UTF-8 straight into a buffer (the lean server's
 * reply buffer, after the room for the head), so a reply of kept fragments is a few memory copies
 * instead of a string of some 40 kB (a gcide `/search` page) built, flattened and encoded again for
 * every request, and no buffer is allocated per reply.
 */

export interface ReplySink {
  /** Whether bytes() is the sink's own way (ByteSink), so kept fragments are worth using. */
  readonly takesBytes: boolean;
  text(s: string): void;
  /** UTF-8 bytes of a piece of text rendered before (ByteSink only: TextSink renders text). */
  bytes(b: Uint8Array): void;
  /** text(s), returning the UTF-8 bytes written as a buffer of their own (to keep for bytes() later). */
  textKept(s: string): Buffer;
  /** Where the next piece goes, for keptSince. */
  mark(): number;
  /** The UTF-8 of what was written since `mark`, as a buffer of its own (to keep for bytes() later). */
  keptSince(mark: number): Buffer;
}

/** A reply body written at send time into the sender's buffer (lean/reply-bytes.ts), or bytes() for the others. */
export type BodyWriter = (out: ByteSink) => void;

export class TextSink implements ReplySink {
  readonly takesBytes = false;
  out = '';
  text(s: string): void { this.out += s; }
  bytes(b: Uint8Array): void { this.out += Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8'); }
  textKept(s: string): Buffer { this.out += s; return Buffer.from(s, 'utf8'); }
  mark(): number { return this.out.length; }
  keptSince(mark: number): Buffer { return Buffer.from(this.out.slice(mark), 'utf8'); }
}

/** Text this long or shorter is copied a character at a time when ASCII: cheaper than a native write call. */
const SHORT_TEXT = 64;

/** UTF-8 into `buffer` from `start` on, grown (a new buffer, the bytes before copied) by doubling when full. */
export class ByteSink implements ReplySink {
  readonly takesBytes = true;
  #buf: Buffer;
  #pos: number;

  constructor(buffer: Buffer = Buffer.allocUnsafe(1 << 14), start = 0) {
    this.#buf = buffer;
    this.#pos = start;
  }

  /** The buffer written (the one given, unless it had to grow). */
  get buffer(): Buffer { return this.#buf; }

  /** Where the next byte goes: the end of what was written. */
  get end(): number { return this.#pos; }

  #room(n: number): void {
    if (this.#pos + n <= this.#buf.length) return;
    let size = Math.max(this.#buf.length * 2, 1 << 12);
    while (size < this.#pos + n) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.#buf.copy(grown, 0, 0, this.#pos);
    this.#buf = grown;
  }

  text(s: string): void {
    const n = s.length;
    this.#room(3 * n); // UTF-8 takes at most 3 bytes per UTF-16 unit
    const buf = this.#buf;
    if (n <= SHORT_TEXT) {
      const at = this.#pos;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c > 0x7f) break;
        buf[at + i] = c;
      }
      if (i === n) { this.#pos += n; return; }
    }
    this.#pos += buf.write(s, this.#pos, 'utf8');
  }

  /** Encodes once, then copies the bytes written: cheaper than encoding into a buffer of their own and copying that in. */
  textKept(s: string): Buffer {
    const at = this.#pos;
    this.text(s);
    return Buffer.from(this.#buf.subarray(at, this.#pos));
  }

  mark(): number { return this.#pos; }

  keptSince(mark: number): Buffer { return Buffer.from(this.#buf.subarray(mark, this.#pos)); }

  bytes(b: Uint8Array): void {
    this.#room(b.length);
    this.#buf.set(b, this.#pos);
    this.#pos += b.length;
  }
}

/** A BodyWriter's bytes, in a buffer of their own. */
export function bodyBytes(write: BodyWriter): Buffer<ArrayBuffer> {
  const out = new ByteSink();
  write(out);
  return out.buffer.subarray(0, out.end) as Buffer<ArrayBuffer>;
}
