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
  #buf: Buffer = Buffer.alloc(0);
  /** Payload parts of a request split over 16M packets. */
  #parts: Buffer[] = [];
  #partsBytes = 0;

  constructor(readonly maxPacketBytes = DEFAULT_MAX_PACKET_BYTES) {}

  push(chunk: Buffer): void {
    this.#buf = this.#buf.length ? Buffer.concat([this.#buf, chunk]) : chunk;
  }

  /** The next complete request, or undefined when more bytes are needed. Throws PacketTooLargeError. */
  next(): Packet | undefined {
    for (;;) {
      if (this.#buf.length < 4) return undefined;
      const size = this.#buf.readUIntLE(0, 3);
      const seq = this.#buf[3]!;
      if (this.#partsBytes + size > this.maxPacketBytes) throw new PacketTooLargeError(this.#partsBytes + size, this.maxPacketBytes, seq);
      if (this.#buf.length < 4 + size) return undefined;
      const payload = this.#buf.subarray(4, 4 + size);
      this.#buf = this.#buf.subarray(4 + size);
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

  /** Bytes received but not yet returned as a packet. */
  get pending(): number {
    return this.#buf.length + this.#partsBytes;
  }
}
