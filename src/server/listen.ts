/**
 * Listen addresses: `--http HOST:PORT` flags and Manticore's `listen = [host:]port[:proto]`
 * directives (`127.0.0.1:9308:http`, `9306:mysql41`, `/run/x.sock:mysql` is refused: TCP only).
 */
import { SearchError } from '../util/errors.js';

/** Listen protocols; `sphinx` is the binary API (src/agent/), `replication` is not served. */
export type ListenProto = 'http' | 'mysql' | 'sphinx' | 'replication';

export interface ListenAddress {
  host: string;
  /** 0 asks the OS for a free port (the real one is printed when ready). */
  port: number;
  proto: ListenProto;
}

/** Host Manticore binds when a directive names only a port. */
export const ANY_HOST = '0.0.0.0';

const PROTOS: Record<string, ListenProto> = {
  http: 'http',
  https: 'http',
  mysql: 'mysql',
  mysql41: 'mysql',
  sphinx: 'sphinx',
  replication: 'replication',
};

function protoOf(name: string): ListenProto {
  // `_vip` and `_readonly` suffixes change access rules, not the protocol.
  const base = name.toLowerCase().split('_')[0]!;
  const proto = PROTOS[base];
  if (!proto) throw new SearchError('BAD_SETTING', `unknown listen protocol type '${name}'`);
  return proto;
}

function portOf(text: string, allowZero: boolean): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= (allowZero ? 0 : 1) && port <= 65535)) {
    throw new SearchError('BAD_SETTING', `port ${text} is out of range`);
  }
  return port;
}

/** `HOST:PORT` (or `PORT`, on 127.0.0.1) of a command-line flag; port 0 is allowed. */
export function parseHostPort(spec: string, proto: ListenProto): ListenAddress {
  const colon = spec.lastIndexOf(':');
  if (colon < 0) return { host: '127.0.0.1', port: portOf(spec, true), proto };
  const host = spec.slice(0, colon).replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  return { host, port: portOf(spec.slice(colon + 1), true), proto };
}

/** One `listen` directive of the searchd section. A port range (`9350-9360`) keeps its first port. */
export function parseListenDirective(spec: string): ListenAddress {
  const parts = spec.trim().split(':');
  if (parts.length > 3) throw new SearchError('BAD_SETTING', 'invalid listen format (too many fields)');
  if (parts[0]!.startsWith('/')) throw new SearchError('BAD_SETTING', `UNIX sockets are not supported: ${spec}`);
  const first = parts[0]!;
  if (/^\d{1,5}$/.test(first)) {
    if (parts.length === 3) {
      throw new SearchError('BAD_SETTING', `invalid listen format (expected port:proto, got extra trailing part in listen=${spec})`);
    }
    return { host: ANY_HOST, port: portOf(first, false), proto: parts[1] ? protoOf(parts[1]) : 'sphinx' };
  }
  if (parts.length === 1) throw new SearchError('BAD_SETTING', `listen=${spec} names no port`);
  const port = portOf(parts[1]!.split('-')[0]!, false);
  return { host: first || ANY_HOST, port, proto: parts[2] ? protoOf(parts[2]) : 'sphinx' };
}

/** `host:port` for messages; IPv6 hosts in brackets. */
export function formatAddress(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
