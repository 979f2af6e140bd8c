/**
 * One connection of the lean server: reads requests off the socket, answers those readLeanHead takes
 * one at a time in order (pipelining-safe: the next is read only after the reply is written), and
 * hands the connection to node:http, with every unanswered byte put back, at the first request it does
 * not take (or a head split across reads). Until then it keeps node:http's timing: a body must arrive
 * within the request timeout, an idle keep-alive connection is dropped after the keep-alive timeout.
 */
import type { Socket } from 'node:net';
import type { FastRoutes } from '../fast-routes.js';
import { bodyText, internalErrorReply } from '../fast-routes.js';
import type { TextReply } from '../sql-routes.js';
import { HEAD_INCOMPLETE, NOT_LEAN, readLeanHead, type LeanHead } from './request-head.js';
import { connectionTail, writeReply } from './reply-bytes.js';

/** What a connection needs of its server; read per request, so limits set after start apply. */
export interface LeanServerContext {
  routes: FastRoutes;
  maxBodyBytes: number;
  maxHeadBytes: number;
  /** node:http's keep-alive and request timeouts (ms; 0 = none), as set on its server. */
  keepAliveTimeoutMs(): number;
  requestTimeoutMs(): number;
  /** True once the listener is closing: a reply then ends its connection. */
  closing(): boolean;
  onInternalError(err: unknown): void;
  /** The request is in the activity list until the returned function is called. */
  onRequest(socket: Socket, method: string, url: string): () => void;
  /** Gives the socket to node:http; unread bytes were put back on it. */
  handOver(socket: Socket): void;
  /** A framing error as node:http reports it (its server's 'clientError'), which answers or closes. */
  clientError(err: NodeJS.ErrnoException, socket: Socket): void;
}

/** Unread bytes beyond this stop reading the socket while a request runs (a client pipelining without reading replies). */
const MAX_AHEAD_BYTES = 1 << 20;
const NO_BYTES = Buffer.alloc(0);

export class LeanConnection {
  /** Bytes read and not yet answered, in arrival order. */
  #chunks: Buffer[] = [];
  #buffered = 0;
  /** A request is being answered: what arrives meanwhile waits its turn. */
  #busy = false;
  #paused = false;
  /** The head waiting for its body, and the timer that drops it when the body is late. */
  #waiting: LeanHead | undefined;
  #bodyTimer: NodeJS.Timeout | undefined;
  #keepAliveSet = false;
  /** A reply was written: only then does the keep-alive timeout drop an idle connection (as node:http's). */
  #answered = false;
  #done = false;
  /** The head being answered and the end of its entry in the activity list. */
  #answering: LeanHead | undefined;
  #endRequest: () => void = () => undefined;
  readonly #onData = (chunk: Buffer) => this.#read(chunk);
  readonly #onError = () => this.socket.destroy();
  readonly #onTimeout = () => { if (this.#answered && !this.#busy && !this.#waiting) this.socket.destroy(); };
  readonly #onClose = () => this.#finish();
  readonly #onEnd = () => this.#ended();

  constructor(readonly socket: Socket, readonly ctx: LeanServerContext) {
    socket.on('data', this.#onData);
    socket.on('error', this.#onError);
    socket.on('close', this.#onClose);
    socket.on('end', this.#onEnd);
    // What a connection's first reply did to its socket is done here, so a new connection's socket has
    // the map (hidden class) of the served ones from the start: the keep-alive timeout set at the first
    // reply added the socket's `timeout` field, and the first write the writable state's callback field.
    // A burst of new connections (the insert bench's 16 clients) deoptimized the stream and socket code
    // (Socket.read, Writable.write, writeOrBuffer, onwrite, _unrefTimer, addChunk) and #reply, whose
    // arm-once branch had never run with type feedback ('wrong map' and 'insufficient type feedback'
    // under --trace-deopt, insert-ab --phases 1 --http 1), and all were compiled again in the timed phase.
    // The timeout is armed now and ignored until a reply is written (#onTimeout): each read and write
    // re-arms it, so it runs from the last one as before; the empty write sends no bytes.
    const keepAliveMs = ctx.keepAliveTimeoutMs();
    if (keepAliveMs > 0) {
      this.#keepAliveSet = true;
      socket.setTimeout(keepAliveMs, this.#onTimeout);
    }
    if (socket.writable) socket.write(NO_BYTES);
  }

  /** No request is running or partly read: safe to close now. */
  get idle(): boolean {
    return !this.#busy && this.#buffered === 0;
  }

  #read(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    if (this.#busy) {
      if (this.#buffered > MAX_AHEAD_BYTES && !this.#paused) { this.#paused = true; this.socket.pause(); }
      return;
    }
    if (this.#waiting && this.#buffered < this.#waiting.headBytes + this.#waiting.contentLength) return;
    this.#next();
  }

  /** Answers the next buffered request, waits for more bytes, or hands the connection over. */
  #next(): void {
    if (this.#done || this.socket.destroyed) return;
    if (this.#buffered === 0) return;
    // the one array of chunks is kept: two new arrays a request were garbage of every single-row INSERT
    if (this.#chunks.length > 1) {
      const joined = Buffer.concat(this.#chunks, this.#buffered);
      this.#chunks.length = 0;
      this.#chunks.push(joined);
    }
    const buf = this.#chunks[0]!;
    const head = this.#waiting ?? readLeanHead(buf, 0, this.ctx.maxHeadBytes);
    if (head === HEAD_INCOMPLETE || head === NOT_LEAN || !this.#routable(head)) return this.#handOver();
    const end = head.headBytes + head.contentLength;
    if (buf.length < end) return this.#awaitBody(head);
    this.#clearBodyWait();
    const body = bodyText(buf, head.headBytes, end);
    if (end < buf.length) this.#chunks[0] = buf.subarray(end);
    else this.#chunks.length = 0;
    this.#buffered = buf.length - end;
    this.#answer(head, body);
  }

  #routable(head: LeanHead): boolean {
    return head.contentLength <= this.ctx.maxBodyBytes && this.ctx.routes(head.path) !== undefined;
  }

  #awaitBody(head: LeanHead): void {
    if (this.#waiting) return;
    this.#waiting = head;
    const ms = this.ctx.requestTimeoutMs();
    // node:http cuts a request whose whole message is late by the request timeout, without an answer
    if (ms > 0) this.#bodyTimer = setTimeout(() => this.socket.destroy(), ms);
  }

  #clearBodyWait(): void {
    this.#waiting = undefined;
    if (this.#bodyTimer) clearTimeout(this.#bodyTimer);
    this.#bodyTimer = undefined;
  }

  #answer(head: LeanHead, body: string): void {
    this.#busy = true;
    this.#answering = head;
    this.#endRequest = this.ctx.onRequest(this.socket, 'POST', head.url);
    const route = this.ctx.routes(head.path)!;
    let replied: Promise<TextReply>;
    try {
      replied = route({ socket: this.socket, urlQuery: head.urlQuery, contentType: head.contentType, body });
    } catch (err) {
      replied = Promise.reject(err);
    }
    // one promise a request (was three: catch, then, catch), its handlers made once per connection
    replied.then(this.#onReply, this.#onRouteError);
  }

  readonly #onReply = (reply: TextReply): void => {
    try {
      this.#endRequest();
      this.#busy = false;
      this.#reply(this.#answering!, reply);
    } catch (err) {
      this.#cannotReply(err);
    }
  };

  /** A route's unexpected failure: the client gets the 500. */
  readonly #onRouteError = (err: unknown): void => {
    let reply: TextReply;
    try {
      reply = internalErrorReply(err, this.ctx.onInternalError);
    } catch (e) {
      return this.#cannotReply(e);
    }
    this.#onReply(reply);
  };

  /** A reply that could not be written leaves the connection in no state to go on. */
  #cannotReply(err: unknown): void {
    this.ctx.onInternalError(err);
    this.socket.destroy();
  }

  #reply(head: LeanHead, reply: TextReply): void {
    const socket = this.socket;
    if (socket.destroyed || !socket.writable) return;
    const close = head.close || this.ctx.closing();
    const keepAliveMs = this.ctx.keepAliveTimeoutMs();
    writeReply(socket, reply.status, reply.contentType, reply.body, connectionTail(close, keepAliveMs));
    if (close) {
      this.#done = true;
      socket.destroySoon();
      return;
    }
    this.#answered = true;
    if (this.#paused) { this.#paused = false; socket.resume(); }
    if (socket.writableNeedDrain) socket.once('drain', () => this.#next());
    else this.#next();
  }

  /** node:http takes the socket and reads the unanswered bytes first. */
  #handOver(): void {
    this.#finish();
    const socket = this.socket;
    socket.removeListener('data', this.#onData);
    socket.removeListener('error', this.#onError);
    socket.removeListener('close', this.#onClose);
    socket.removeListener('end', this.#onEnd);
    if (this.#keepAliveSet) { socket.setTimeout(0); socket.removeListener('timeout', this.#onTimeout); }
    socket.pause();
    for (let i = this.#chunks.length - 1; i >= 0; i--) socket.unshift(this.#chunks[i]!);
    this.#chunks = [];
    this.#buffered = 0;
    this.ctx.handOver(socket);
    process.nextTick(() => socket.resume());
  }

  /**
   * The client closed its side. As node:http: a request cut short is a framing error (its 400), else
   * our side is closed too, so a reply still being computed is never written.
   */
  #ended(): void {
    if (this.#done) return;
    if (this.#waiting) {
      this.#finish();
      const err: NodeJS.ErrnoException = new Error('Parse Error: Invalid EOF state');
      err.code = 'HPE_INVALID_EOF_STATE';
      this.ctx.clientError(err, this.socket);
      return;
    }
    this.#finish();
    if (this.socket.writable) this.socket.end();
  }

  #finish(): void {
    this.#done = true;
    this.#clearBodyWait();
  }
}
