/**
 * Where a reply renderer (render-search.ts) writes: text pieces, and byte fragments it kept from an
 * earlier reply. TextSink joins text; ByteSink writes UTF-8 straight into one reused buffer, so a
 * reply of kept fragments is a few memory copies instead of a string of some 40 kB (a gcide `/search`
 * page) built, flattened and encoded again for every request.
 */

export interface ReplySink {
  /** Whether bytes() is the sink's own way (ByteSink), so kept fragments are worth using. */
  readonly takesBytes: boolean;
  text(s: string): void;
  /** UTF-8 bytes of a piece of text rendered before (ByteSink only: TextSink renders text). */
  bytes(b: Uint8Array): void;
}

export class TextSink implements ReplySink {
  readonly takesBytes = false;
  out = '';
  text(s: string): void { this.out += s; }
  bytes(b: Uint8Array): void { this.out += Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8'); }
}

/** Text this long or shorter is copied a character at a time when ASCII: cheaper than a native write call. */
const SHORT_TEXT = 64;

/**
 * UTF-8 into a buffer kept between replies (rendering is synchronous: one reply at a time), grown by
 * doubling; take() copies the reply out, since the next reply reuses the buffer.
 */
export class ByteSink implements ReplySink {
  readonly takesBytes = true;
  static #scratch = Buffer.allocUnsafe(1 << 16);
  #buf = ByteSink.#scratch;
  #pos = 0;

  #room(n: number): void {
    if (this.#pos + n <= this.#buf.length) return;
    let size = this.#buf.length * 2;
    while (size < this.#pos + n) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.#buf.copy(grown, 0, 0, this.#pos);
    this.#buf = ByteSink.#scratch = grown;
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

  bytes(b: Uint8Array): void {
    this.#room(b.length);
    this.#buf.set(b, this.#pos);
    this.#pos += b.length;
  }

  /** The reply's bytes, its own copy. */
  take(): Buffer<ArrayBuffer> {
    const out = Buffer.allocUnsafe(this.#pos) as Buffer<ArrayBuffer>;
    this.#buf.copy(out, 0, 0, this.#pos);
    this.#pos = 0;
    return out;
  }
}
