/**
 * The binary API's framing on one socket: open a connection within the connect timeout, and exchange
 * one command for its reply within the query timeout. Shared by one-shot requests and the persistent
 * pool; failures are rejected with searchd's wording so a master can report them.
 */
import { connect, type Socket } from 'node:net';
import { reply } from './wire.js';

export interface AgentAddress {
  host: string;
  port: number;
}

export interface AgentTimeouts {
  connectMs: number;
  queryMs: number;
}

export interface AgentReply {
  status: number;
  body: Buffer;
}

/** errno values and texts of the failures a connect() meets (Linux numbering, as searchd prints them). */
const CONNECT_ERRORS: Record<string, [number, string]> = {
  ECONNREFUSED: [111, 'Connection refused'], EHOSTUNREACH: [113, 'No route to host'],
  ENETUNREACH: [101, 'Network is unreachable'], ETIMEDOUT: [110, 'Connection timed out'], ECONNRESET: [104, 'Connection reset by peer'],
};

/** searchd's wording of a failed connect: `connect() failed: errno=111, Connection refused`. */
function connectFailure(e: NodeJS.ErrnoException): string {
  const known = e.code ? CONNECT_ERRORS[e.code] : undefined;
  if (known) return `connect() failed: errno=${known[0]}, ${known[1]}`;
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return `failed to lookup host: ${e.message}`;
  return `connect() failed: ${e.message}`;
}

/** searchd's wording of a failure after connecting: `receiving failure (errno=104, msg=Connection reset by peer)`. */
function receiveFailure(e: NodeJS.ErrnoException): string {
  if (e.code === 'EPIPE') return 'error when sending data: Broken pipe';
  const known = e.code ? CONNECT_ERRORS[e.code] : undefined;
  return known ? `receiving failure (errno=${known[0]}, msg=${known[1]})` : `receiving failure (${e.message})`;
}

/** A command frame: u16 command, u16 version, u32 length, body (the layout of a reply's header). */
export function frame(cmd: number, ver: number, body: Buffer): Buffer {
  return reply(cmd, ver, body);
}

/** Connects and sends the client's protocol version (u32 1); the server's own version is read with the first reply. */
export function openAgentSocket(to: AgentAddress, connectMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(to.port, to.host);
    socket.setNoDelay(true);
    const fail = (message: string) => { socket.destroy(); reject(new Error(message)); };
    const timer = setTimeout(() => fail('connect and query timed out'), connectMs);
    const onError = (e: NodeJS.ErrnoException) => { clearTimeout(timer); fail(connectFailure(e)); };
    socket.once('error', onError);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', onError);
      const hello = Buffer.alloc(4);
      hello.writeUInt32BE(1);
      socket.write(hello);
      resolve(socket);
    });
  });
}

/**
 * Writes `out` and reads one reply (preceded by the server's 4-byte version when `hello` is still
 * unread). The socket's listeners are removed afterwards, so a persistent socket can be reused;
 * on failure the socket is destroyed.
 */
export function exchange(socket: Socket, out: Buffer, hello: boolean, queryMs: number): Promise<AgentReply> {
  return new Promise((resolve, reject) => {
    let got: Buffer = Buffer.alloc(0);
    const skip = hello ? 4 : 0;
    const done = () => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
    };
    const fail = (message: string) => { done(); socket.destroy(); reject(new Error(message)); };
    const onData = (chunk: Buffer) => {
      got = got.length ? Buffer.concat([got, chunk]) : chunk;
      if (got.length < skip + 8) return;
      const len = got.readUInt32BE(skip + 4);
      if (got.length < skip + 8 + len) return;
      done();
      if (got.length > skip + 8 + len) { socket.destroy(); reject(new Error('failed to parse remote reply: unexpected bytes after the reply')); return; }
      resolve({ status: got.readUInt16BE(skip), body: got.subarray(skip + 8, skip + 8 + len) });
    };
    const onError = (e: NodeJS.ErrnoException) => fail(receiveFailure(e));
    const onClose = () => fail('agent closed connection');
    const timer = setTimeout(() => fail('query timed out'), queryMs);
    socket.on('data', onData);
    socket.once('error', onError);
    socket.once('close', onClose);
    socket.write(out);
  });
}
