import { describe, expect, it } from 'vitest';
import { parseCliArgs, parseSize } from '../../../src/server/cli-args.js';
import { parseConfig } from '../../../src/server/config-parser.js';
import { resolveServeOptions } from '../../../src/server/serve-options.js';

describe('parseCliArgs', () => {
  it('reads serve flags in both spellings', () => {
    expect(parseCliArgs(['serve', '--data', 'd', '--http=0.0.0.0:0', '--mysql', '127.0.0.1:0', '--config', 'q.conf'])).toEqual({
      command: 'serve',
      dataDir: 'd',
      http: '0.0.0.0:0',
      mysql: '127.0.0.1:0',
      configPath: 'q.conf',
    });
    expect(parseCliArgs([])).toEqual({ command: 'serve' });
    expect(parseCliArgs(['--max-body', '1k']).maxBodyBytes).toBe(1024);
  });

  it('knows help and version, and refuses unknown input', () => {
    expect(parseCliArgs(['serve', '--help']).command).toBe('help');
    expect(parseCliArgs(['--version']).command).toBe('version');
    expect(() => parseCliArgs(['serve', '--port', '1'])).toThrow("unknown option '--port'");
    expect(() => parseCliArgs(['start'])).toThrow("unknown command 'start'");
    expect(() => parseCliArgs(['--data'])).toThrow("option '--data' needs a value");
  });

  it('reads export and its required flags', () => {
    expect(parseCliArgs(['export', '--data', 'd', '--table', 't', '--out=o'])).toEqual({ command: 'export', dataDir: 'd', table: 't', outDir: 'o' });
    expect(() => parseCliArgs(['export', '--data', 'd', '--table', 't'])).toThrow('export needs --data DIR, --table NAME and --out DIR');
    expect(() => parseCliArgs(['serve', '--table', 't'])).toThrow('--table and --out are options of export');
    expect(() => parseCliArgs(['export', 'serve'])).toThrow("unknown command 'serve'");
  });

  it('reads sizes with K/M/G suffixes', () => {
    expect(parseSize('128M')).toBe(128 * 1024 * 1024);
    expect(parseSize('64k')).toBe(65536);
    expect(parseSize('10')).toBe(10);
    expect(() => parseSize('1T')).toThrow("invalid size '1T'");
  });
});

describe('resolveServeOptions', () => {
  it('uses defaults without flags or config', () => {
    const o = resolveServeOptions({ command: 'serve' });
    expect(o).toEqual({
      dataDir: './data',
      http: { host: '127.0.0.1', port: 9308, proto: 'http' },
      mysql: { host: '127.0.0.1', port: 9306, proto: 'mysql' },
      configPath: undefined,
      maxBodyBytes: 128 * 1024 * 1024,
      maxConnections: 4096,
      clientTimeoutMs: 300_000,
      sphinxqlTimeoutMs: 900_000,
    });
  });

  it('reads max_connections, client_timeout and sphinxql_timeout from the config', () => {
    const config = parseConfig('searchd {\n max_connections = 50\n client_timeout = 10s\n sphinxql_timeout = 2m\n}');
    expect(resolveServeOptions({ command: 'serve' }, config)).toMatchObject({ maxConnections: 50, clientTimeoutMs: 10_000, sphinxqlTimeoutMs: 120_000 });
    expect(() => resolveServeOptions({ command: 'serve' }, parseConfig('searchd {\n max_connections = -1\n}'))).toThrow('max_connections must be a positive number');
    expect(resolveServeOptions({ command: 'serve' }, parseConfig('searchd {\n max_query_memory = 256M\n}')).maxQueryMemory).toBe(256 * 1024 * 1024);
    expect(() => resolveServeOptions({ command: 'serve' }, parseConfig('searchd {\n max_query_memory = 4G\n}'))).toThrow('max_query_memory must be a size below 4G (0: no cap)');
    // Manticore's 0: unlimited
    expect(resolveServeOptions({ command: 'serve' }, parseConfig('searchd {\n max_connections = 0\n}')).maxConnections).toBeUndefined();
  });

  it('takes the config over defaults and flags over the config', () => {
    const config = parseConfig('searchd {\n listen = 9312\n listen = 10.0.0.1:7000:http\n listen = 7001:mysql41\n data_dir = /d\n max_packet_size = 1M\n}');
    const fromConfig = resolveServeOptions({ command: 'serve' }, config);
    expect(fromConfig.http).toEqual({ host: '10.0.0.1', port: 7000, proto: 'http' });
    expect(fromConfig.mysql).toEqual({ host: '0.0.0.0', port: 7001, proto: 'mysql' });
    expect(fromConfig.dataDir).toBe('/d');
    expect(fromConfig.maxBodyBytes).toBe(1024 * 1024);
    const flags = resolveServeOptions({ command: 'serve', http: '127.0.0.1:0', dataDir: 'x', maxBodyBytes: 5 }, config);
    expect(flags.http.port).toBe(0);
    expect(flags.dataDir).toBe('x');
    expect(flags.maxBodyBytes).toBe(5);
  });
});

describe('parseDuration', () => {
  it('reads Manticore time values, a bare number being seconds', async () => {
    const { parseDuration } = await import('../../../src/server/cli-args.js');
    expect(parseDuration('300')).toBe(300_000);
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(() => parseDuration('soon')).toThrow("invalid time 'soon'");
  });
});
