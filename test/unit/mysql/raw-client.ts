/** Test helper: a minimal MySQL client over a raw socket, to check packets byte by byte. */
import { connect, type Socket } from 'node:net';
import { PacketWriter } from '../../../src/mysql/packet-writer.js';

export interface RawPacket {
  seq: number;
  payload: Buffer;
}

export class RawClient {
  #buf = Buffer.alloc(0);
  #waiters: Array<() => void> = [];
  closed = false;
  constructor(readonly socket: Socket) {
    socket.on('data', (c: Buffer) => {
      this.#buf = Buffer.concat([this.#buf, c]);
      this.#wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.#wake();
    });
    socket.on('error', () => undefined);
  }

  static open(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => resolve(new RawClient(s)));
      s.once('error', reject);
    });
  }

  /** Opens a connection and logs in with a HandshakeResponse41 (user root, empty password). */
  static async login(port: number, plugin = 'mysql_native_password'): Promise<RawClient> {
    const c = await RawClient.open(port);
    await c.read();
    const caps = 0x200 | 0x8000 | 0x10000 | 0x20000 | 0x80000;
    const w = new PacketWriter(1);
    w.begin().u32(caps).u32(1 << 24).u8(33).bytes(Buffer.alloc(23)).nulText('root').u8(0).nulText(plugin).end();
    c.socket.write(w.finish());
    return c;
  }

  #wake(): void {
    for (const w of this.#waiters.splice(0)) w();
  }

  /** The next packet; undefined once the server closed the connection. */
  async read(): Promise<RawPacket | undefined> {
    for (;;) {
      if (this.#buf.length >= 4) {
        const len = this.#buf.readUIntLE(0, 3);
        if (this.#buf.length >= 4 + len) {
          const p = { seq: this.#buf[3]!, payload: this.#buf.subarray(4, 4 + len) };
          this.#buf = this.#buf.subarray(4 + len);
          return p;
        }
      }
      if (this.closed) return undefined;
      await new Promise<void>((r) => this.#waiters.push(r));
    }
  }

  /** Sends one command packet (sequence id 0 unless given). */
  send(payload: Buffer, seq = 0): void {
    const w = new PacketWriter(seq);
    w.begin().bytes(payload).end();
    this.socket.write(w.finish());
  }

  /** The next `count` packets; stops early after an ERR packet or a close. */
  async readUntil(count: number): Promise<RawPacket[]> {
    const out: RawPacket[] = [];
    for (let i = 0; i < count; i++) {
      const p = await this.read();
      if (!p) break;
      out.push(p);
      if (p.payload[0] === 0xff) break;
    }
    return out;
  }

  close(): void {
    this.socket.destroy();
  }
}

export function command(code: number, body: string | Buffer = ''): Buffer {
  return Buffer.concat([Buffer.from([code]), typeof body === 'string' ? Buffer.from(body) : body]);
}
