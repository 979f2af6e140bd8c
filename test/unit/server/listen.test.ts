import { describe, expect, it } from 'vitest';
import { formatAddress, parseHostPort, parseListenDirective } from '../../../src/server/listen.js';

describe('parseListenDirective', () => {
  it('reads host:port:proto, port:proto and a bare port (the binary API)', () => {
    expect(parseListenDirective('127.0.0.1:9308:http')).toEqual({ host: '127.0.0.1', port: 9308, proto: 'http' });
    expect(parseListenDirective('9306:mysql41')).toEqual({ host: '0.0.0.0', port: 9306, proto: 'mysql' });
    expect(parseListenDirective('9312')).toEqual({ host: '0.0.0.0', port: 9312, proto: 'sphinx' });
    expect(parseListenDirective('localhost:9306:mysql_vip')).toEqual({ host: 'localhost', port: 9306, proto: 'mysql' });
    expect(parseListenDirective('192.168.0.1:9350-9360:replication').port).toBe(9350);
  });

  it('rejects what Manticore rejects', () => {
    expect(() => parseListenDirective('1:2:3:4')).toThrow('invalid listen format (too many fields)');
    expect(() => parseListenDirective('9306:mysql:x')).toThrow(/expected port:proto/);
    expect(() => parseListenDirective('9306:gopher')).toThrow("unknown listen protocol type 'gopher'");
    expect(() => parseListenDirective('99999:http')).toThrow(/host name|out of range|port/);
    expect(() => parseListenDirective('/run/q.sock:mysql')).toThrow(/UNIX sockets/);
  });
});

describe('parseHostPort', () => {
  it('reads flags, allowing port 0 and bare ports', () => {
    expect(parseHostPort('127.0.0.1:0', 'http')).toEqual({ host: '127.0.0.1', port: 0, proto: 'http' });
    expect(parseHostPort('9308', 'http')).toEqual({ host: '127.0.0.1', port: 9308, proto: 'http' });
    expect(parseHostPort('[::1]:9306', 'mysql')).toEqual({ host: '::1', port: 9306, proto: 'mysql' });
    expect(() => parseHostPort('host:http', 'http')).toThrow(/out of range/);
  });

  it('formats IPv6 hosts in brackets', () => {
    expect(formatAddress('::1', 5)).toBe('[::1]:5');
    expect(formatAddress('127.0.0.1', 5)).toBe('127.0.0.1:5');
  });
});

describe('the binary API listener in serve options', () => {
  it('is off unless --agent or a listen line without protocol (or :sphinx) names it', async () => {
    const { resolveServeOptions } = await import('../../../src/server/serve-options.js');
    const { parseConfig } = await import('../../../src/server/config-parser.js');
    expect(resolveServeOptions({ command: 'serve' }).agent).toBeUndefined();
    expect(resolveServeOptions({ command: 'serve', agent: '127.0.0.1:9312' }).agent).toEqual({ host: '127.0.0.1', port: 9312, proto: 'sphinx' });
    const config = parseConfig('searchd {\n listen = 127.0.0.1:9306:mysql41\n listen = 127.0.0.1:9312\n}\n', 'x.conf');
    expect(resolveServeOptions({ command: 'serve' }, config).agent).toEqual({ host: '127.0.0.1', port: 9312, proto: 'sphinx' });
    const sphinx = parseConfig('searchd {\n listen = 9412:sphinx\n}\n', 'x.conf');
    expect(resolveServeOptions({ command: 'serve' }, sphinx).agent).toEqual({ host: '0.0.0.0', port: 9412, proto: 'sphinx' });
  });
});
