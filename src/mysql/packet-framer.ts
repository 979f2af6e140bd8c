/** Cuts the incoming byte stream into MySQL packets, joining 16M continuation packets. */
import { MAX_PAYLOAD } from './packet-writer.js';

/** Manticore's default max_packet_size: a request (all its continuation packets) larger than this is refused. */
export const DEFAULT_MAX_PACKET_BYTES = 128 * 1024 * 1024;

export interface Packet {
  /** Sequence id of the last packet of the request. */
  seq: number;
  payload: Buffer;
}

/** The announced request is over the limit; the connection answers with an ERR and closes. */
export class PacketTooLargeError extends Error {
  constructor(readonly size: number, readonly limit: number, readonly seq: number) {
    super(`request packet too large (length=${size}, max_packet_size=${limit})`);
    this.name = 'PacketTooLargeError';
  }
}

export class PacketFramer {
  /** Received bytes not yet returned, in arrival order; joined only once a whole packet is there. */
  #chunks: Buffer[] = [];
  #bytes = 0;
  /** Payload parts of a request split over 16M packets. */
  #parts: Buffer[] = [];
  #partsBytes = 0;

  constructor(readonly maxPacketBytes = DEFAULT_MAX_PACKET_BYTES) {}

  /** Keeps `chunk`; a large request arriving in many chunks is copied once, not once per chunk. */
  push(chunk: Buffer): void {
    if (!chunk.length) return;
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
  }

  /** The buffered bytes with at least `n` of them in the first chunk (joined if they are not). */
  #front(n: number): Buffer {
    if (this.#chunks[0]!.length < n) this.#chunks = [Buffer.concat(this.#chunks, this.#bytes)];
    return this.#chunks[0]!;
  }

  /** Drops the first `n` bytes, which lie in the first chunk (no empty view made when that is all of it). */
  #consume(n: number): void {
    const first = this.#chunks[0]!;
    if (n < first.length) this.#chunks[0] = first.subarray(n);
    else this.#chunks.shift();
    this.#bytes -= n;
  }

  /** The next complete request, or undefined when more bytes are needed. Throws PacketTooLargeError. */
  next(): Packet | undefined {
    for (;;) {
      if (this.#bytes < 4) return undefined;
      const head = this.#front(4);
      const size = head[0]! | (head[1]! << 8) | (head[2]! << 16);
      const seq = head[3]!;
      if (this.#partsBytes + size > this.maxPacketBytes) throw new PacketTooLargeError(this.#partsBytes + size, this.maxPacketBytes, seq);
      if (this.#bytes < 4 + size) return undefined;
      const payload = this.#front(4 + size).subarray(4, 4 + size);
      this.#consume(4 + size);
      if (size === MAX_PAYLOAD) {
        this.#parts.push(payload);
        this.#partsBytes += size;
        continue;
      }
      if (!this.#parts.length) return { seq, payload };
      const whole = Buffer.concat([...this.#parts, payload]);
      this.#parts = [];
      this.#partsBytes = 0;
      return { seq, payload: whole };
    }
  }

  /** Hands back the received bytes not yet framed and forgets them (the stream changes hands: TLS). */
  takeBuffered(): Buffer {
    const rest = Buffer.concat(this.#chunks, this.#bytes);
    this.#chunks = [];
    this.#bytes = 0;
    return rest;
  }

  /** Bytes received but not yet returned as a packet. */
  get pending(): number {
    return this.#bytes + this.#partsBytes;
  }
}
