/** A minimal MySQL client over a raw socket for fuzzing: reads whole responses, with a deadline. */
import { connect, type Socket } from 'node:net';

const MORE_RESULTS = 0x08;

export class WireClient {
  #buf: Buffer = Buffer.alloc(0);
  #wake: (() => void) | undefined;
  closed = false;
  constructor(readonly socket: Socket) {
    socket.on('data', (c: Buffer) => {
      this.#buf = this.#buf.length ? Buffer.concat([this.#buf, c]) : c;
      this.#wake?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.#wake?.();
    });
    socket.on('error', () => undefined);
  }

  static open(port: number): Promise<WireClient> {
    return new Promise((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => resolve(new WireClient(s)));
      s.setNoDelay(true);
      s.once('error', reject);
    });
  }

  /** Connects and logs in as root; resolves once the OK arrived. */
  static async login(port: number, deadline: number): Promise<WireClient> {
    const c = await WireClient.open(port);
    await c.packet(deadline);
    const b = Buffer.alloc(32);
    b.writeUInt32LE(0x200 | 0x8000 | 0x10000 | 0x20000 | 0x80000, 0);
    b.writeUInt32LE(1 << 24, 4);
    b[8] = 33;
    const payload = Buffer.concat([b, Buffer.from('root\0\0mysql_native_password\0')]);
    c.write(payload, 1);
    const ok = await c.packet(deadline);
    if (!ok || ok[0] !== 0) throw new Error('login failed');
    return c;
  }

  write(payload: Buffer, seq: number): void {
    const head = Buffer.alloc(4);
    head.writeUIntLE(payload.length, 0, 3);
    head[3] = seq;
    this.socket.write(Buffer.concat([head, payload]));
  }

  /** The next payload; undefined on close; throws 'hang' past the deadline. */
  async packet(deadline: number): Promise<Buffer | undefined> {
    for (;;) {
      if (this.#buf.length >= 4) {
        const len = this.#buf.readUIntLE(0, 3);
        if (this.#buf.length >= 4 + len) {
          const p = this.#buf.subarray(4, 4 + len);
          this.#buf = this.#buf.subarray(4 + len);
          return p;
        }
      }
      if (this.closed) return undefined;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('hang');
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.#wake = () => { clearTimeout(t); this.#wake = undefined; resolve(); };
      });
    }
  }

  /** Every packet of one response (all result sets of a multi-statement), or what came before a close. */
  async response(deadline: number): Promise<{ packets: Buffer[]; closed: boolean }> {
    const packets: Buffer[] = [];
    const next = async () => {
      const p = await this.packet(deadline);
      if (p) packets.push(p);
      return p;
    };
    for (;;) {
      const first = await next();
      if (!first) return { packets, closed: true };
      if (first[0] === 0xff) return { packets, closed: false };
      if (first[0] === 0x00) {
        if (!(statusOfOk(first) & MORE_RESULTS)) return { packets, closed: false };
        continue;
      }
      let eofs = 0;
      let status = 0;
      for (;;) {
        const p = await next();
        if (!p) return { packets, closed: true };
        if (p[0] === 0xff) return { packets, closed: false };
        if (p[0] === 0xfe && p.length < 9) {
          status = p.readUInt16LE(3);
          if (++eofs === 2) break;
        }
      }
      if (!(status & MORE_RESULTS)) return { packets, closed: false };
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

function lenencSize(b: Buffer, at: number): number {
  const f = b[at]!;
  return f < 0xfb ? 1 : f === 0xfc ? 3 : f === 0xfd ? 4 : 9;
}

function statusOfOk(p: Buffer): number {
  let at = 1;
  at += lenencSize(p, at);
  at += lenencSize(p, at);
  return at + 2 <= p.length ? p.readUInt16LE(at) : 0;
}
