/**
 * One client connection: greeting, authentication (any user and password), then commands one at a
 * time. Each response leaves in one socket write; malformed input gets an ERR or a close, never a crash.
 */
import type { Socket } from 'node:net';
import { TLSSocket, type SecureContext } from 'node:tls';
import type { Engine } from '../engine/engine.js';
import { newSession, type Session } from '../engine/session.js';
import { rollback } from '../engine/transaction/transaction.js';
import { releaseTableLocks } from '../engine/exec/table-locks.js';
import { AUTH_PLUGIN, ErrorCode, Status } from './constants.js';
import { handleCommand, type CommandContext, type CommandOutcome, type ServerStats } from './command-handler.js';
import { newScramble, parseHandshakeResponse, writeAuthSwitch, writeGreeting } from './handshake.js';
import { PacketFramer, PacketTooLargeError, type Packet } from './packet-framer.js';
import { PacketWriter } from './packet-writer.js';
import { StatementRegistry } from './prepared-statements.js';
import { writeErr, writeOk } from './responses.js';
import { logError } from '../util/server-log.js';

/** errno of a refused handshake (ER_HANDSHAKE_ERROR) with its SQLSTATE. */
const HANDSHAKE_ERROR = { errno: 1043, sqlState: '08S01' };

/** How long a connection refused with an ERR waits for the client to close before it is cut. */
const FAIL_LINGER_MS = 1_000;

/** Manticore's sphinxql_timeout default: an idle client is disconnected after this long. */
export const DEFAULT_IDLE_TIMEOUT_MS = 900_000;

/** Manticore's client_timeout default: a request trickling in slower than this is dropped (slowloris). */
export const DEFAULT_PACKET_TIMEOUT_MS = 300_000;

/**
 * The login (greeting to OK, TLS included) must finish within this long, or client_timeout when it is
 * shorter: the bound HTTP puts on a request's headers. Without it a client that never answers the
 * greeting held a max_connections slot for the idle timeout (15 min).
 */
const LOGIN_TIMEOUT_MS = 30_000;

type Phase = 'auth' | 'auth-switch' | 'command' | 'closed';

export interface ConnectionOptions {
  engine: Engine;
  connectionId: number;
  maxPacketBytes: number;
  stats: ServerStats;
  /** This connection's entry in the process's activity list (SHOW THREADS). */
  activityId?: number;
  /** Idle time before the server drops a client (default DEFAULT_IDLE_TIMEOUT_MS). */
  idleTimeoutMs?: number;
  /** A started request packet must be complete within this long (default DEFAULT_PACKET_TIMEOUT_MS). */
  packetTimeoutMs?: number;
  /** Offers SSL in the greeting and accepts an SSLRequest. */
  tls?: SecureContext;
}

export class MysqlConnection {
  /** The client's socket; a TLSSocket over it after an SSLRequest. */
  #socket: Socket;
  readonly #tls: SecureContext | undefined;
  readonly #framer: PacketFramer;
  readonly #ctx: CommandContext;
  readonly #scramble = newScramble();
  #phase: Phase = 'auth';
  #busy = false;
  #closing = false;
  readonly #packetTimeoutMs: number;
  /** Runs while a request is partly received; a client that never finishes it is cut. */
  #partial: NodeJS.Timeout | undefined;
  /** Runs from the greeting until the client is logged in. */
  #login: NodeJS.Timeout | undefined;
  /** Resolves when the socket is fully closed. */
  readonly closed: Promise<void>;

  constructor(socket: Socket, opts: ConnectionOptions) {
    this.#socket = socket;
    this.#tls = opts.tls;
    this.#packetTimeoutMs = opts.packetTimeoutMs ?? DEFAULT_PACKET_TIMEOUT_MS;
    this.#framer = new PacketFramer(opts.maxPacketBytes);
    const session: Session = newSession(opts.activityId, `${socket.remoteAddress}:${socket.remotePort}`);
    this.#ctx = { engine: opts.engine, session, statements: new StatementRegistry(), stats: opts.stats, activityId: opts.activityId };
    socket.setNoDelay(true);
    socket.setTimeout(opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
    // A silent socket while a command runs is the engine working, not an idle client.
    socket.on('timeout', () => { if (!this.#busy) socket.destroy(); });
    this.closed = new Promise((resolve) => socket.once('close', () => {
      this.#phase = 'closed';
      // A transaction still open when the client goes away is discarded.
      rollback(session);
      // and its LOCK TABLES read locks are released (searchd's ~ClientSession_c)
      releaseTableLocks(session);
      clearTimeout(this.#partial);
      clearTimeout(this.#login);
      resolve();
    }));
    this.#listen(socket);
    this.#login = setTimeout(() => this.#socket.destroy(), Math.min(LOGIN_TIMEOUT_MS, this.#packetTimeoutMs)).unref();
    const w = new PacketWriter(0);
    writeGreeting(w, opts.connectionId, this.#scramble, this.#tls !== undefined);
    this.#send(w.finish());
  }

  #listen(socket: Socket): void {
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      this.#framer.push(chunk);
      this.#pump();
    });
  }

  /**
   * Continues the connection over TLS: bytes already read past the SSLRequest (the ClientHello, when
   * it came in the same segment) go back to the raw socket for the TLS layer to read.
   */
  #startTls(context: SecureContext): void {
    const raw = this.#socket;
    raw.removeAllListeners('data');
    raw.pause();
    const early = this.#framer.takeBuffered();
    if (early.length) raw.unshift(early);
    const secure = new TLSSocket(raw, { isServer: true, secureContext: context });
    this.#socket = secure;
    this.#listen(secure);
    process.nextTick(() => raw.resume());
  }

  get idle(): boolean {
    return !this.#busy;
  }

  /** Bytes received and not yet read as a packet (a client gone mid-packet leaves them). */
  get buffered(): number {
    return this.#framer.pending;
  }

  /** Closes after the command in flight (at once when idle). */
  shutdown(): void {
    this.#closing = true;
    if (!this.#busy) this.#socket.end();
  }

  destroy(): void {
    this.#socket.destroy();
  }

  #send(bytes: Buffer): boolean {
    if (this.#phase === 'closed' || this.#socket.destroyed) return false;
    return this.#socket.write(bytes);
  }

  /** Writes an ERR and closes the connection. */
  #fail(seq: number, err: { errno: number; sqlState: string }, message: string): void {
    const w = new PacketWriter(seq & 0xff);
    writeErr(w, err.errno, err.sqlState, message);
    this.#send(w.finish());
    this.#phase = 'closed';
    this.#socket.end();
    // A peer that never closes its side is cut after a moment.
    setTimeout(() => this.#socket.destroy(), FAIL_LINGER_MS).unref();
  }

  /**
   * Answers the framed requests in order, one at a time. Not an async function: a command waiting on the
   * engine hands its outcome to #onOutcome, which goes on with the next request (one promise a command,
   * where an async #pump and #handle awaiting each other made three and as many microtask turns).
   */
  #pump(): void {
    if (this.#busy) return;
    this.#busy = true;
    this.#continue();
  }

  /** Frames and answers requests until one waits on the engine or none is complete; then idle. */
  #continue(): void {
    try {
      while (this.#phase !== 'closed' && !this.#closing) {
        let packet: Packet | undefined;
        try {
          packet = this.#framer.next();
        } catch (e) {
          if (!(e instanceof PacketTooLargeError)) throw e;
          this.#fail(e.seq + 1, ErrorCode.UNKNOWN_COM, e.message);
          break;
        }
        if (!packet) break;
        // a whole request came: the next one gets its own time
        clearTimeout(this.#partial);
        this.#partial = undefined;
        if (this.#phase === 'auth') {
          this.#authenticate(packet);
        } else if (this.#phase === 'auth-switch') {
          this.#phase = 'command';
          this.#accept(packet.seq);
        } else {
          handleCommand(this.#ctx, packet.payload, packet.seq).then(this.#onOutcome, this.#onFault);
          return;
        }
      }
    } catch (e) {
      return this.#onFault(e);
    }
    this.#idle();
  }

  /** A command's outcome: its reply written (waiting for a slow reader to take it), then the next request. */
  readonly #onOutcome = (out: CommandOutcome): void => {
    try {
      if (out.quit) {
        this.#phase = 'closed';
        this.#socket.end();
      } else if (out.reply && !this.#send(out.reply) && this.#phase !== 'closed' && !this.#socket.destroyed) {
        // a slow reader: the next reply waits until it took this one (a closed socket takes nothing more)
        this.#drained().then(this.#onDrained, this.#onFault);
        return;
      }
    } catch (e) {
      return this.#onFault(e);
    }
    this.#continue();
  };

  readonly #onDrained = (): void => this.#continue();

  /** A fault in one connection never reaches the process: log it and drop the connection. */
  readonly #onFault = (e: unknown): void => {
    logError(`mysql connection error: ${(e as Error).message}`, e);
    this.#socket.destroy();
    this.#idle();
  };

  #idle(): void {
    this.#busy = false;
    this.#watchPartial();
    if (this.#closing && this.#phase !== 'closed') this.#socket.end();
  }

  /** Arms the slow-request timer while bytes of an unfinished request wait; disarms it otherwise. */
  #watchPartial(): void {
    if (this.#framer.pending === 0 || this.#phase === 'closed') {
      clearTimeout(this.#partial);
      this.#partial = undefined;
    } else {
      this.#partial ??= setTimeout(() => this.#socket.destroy(), this.#packetTimeoutMs).unref();
    }
  }

  /** Waits until a slow reader has taken the reply (or the socket closed). */
  #drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.#socket.off('drain', done);
        this.#socket.off('close', done);
        resolve();
      };
      this.#socket.once('drain', done);
      this.#socket.once('close', done);
    });
  }

  #authenticate(packet: Packet): void {
    let response;
    try {
      response = parseHandshakeResponse(packet.payload);
    } catch {
      this.#fail(packet.seq + 1, HANDSHAKE_ERROR, 'Bad handshake');
      return;
    }
    if (response.sslRequest) {
      // the handshake response proper comes next, over TLS
      if (this.#tls && !(this.#socket instanceof TLSSocket)) return this.#startTls(this.#tls);
      this.#fail(packet.seq + 1, HANDSHAKE_ERROR, 'SSL is not supported');
      return;
    }
    if (response.plugin && response.plugin !== AUTH_PLUGIN) {
      const w = new PacketWriter((packet.seq + 1) & 0xff);
      writeAuthSwitch(w, this.#scramble);
      this.#phase = 'auth-switch';
      this.#send(w.finish());
      return;
    }
    this.#phase = 'command';
    this.#accept(packet.seq);
  }

  #accept(seq: number): void {
    clearTimeout(this.#login);
    this.#login = undefined;
    const w = new PacketWriter((seq + 1) & 0xff);
    writeOk(w, Status.AUTOCOMMIT);
    this.#send(w.finish());
  }
}
