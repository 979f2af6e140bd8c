import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/server/config-parser.js';
import { replicationOf } from '../../../src/server/replication-option.js';
import type { ServeOptions } from '../../../src/server/serve-options.js';

const options = { mysql: { host: '127.0.0.1', port: 9306 } } as unknown as ServeOptions;
const conf = (lines: string) => parseConfig(`searchd {\n  replication_nats = nats://127.0.0.1:4222\n${lines}\n}\n`);

describe('replication settings', () => {
  it('reads the snapshot triggers in Manticore size and time syntax, and refuses bad values by name', () => {
    expect(replicationOf(conf('  replication_snapshot_bytes = 64M\n  replication_snapshot_interval = 10m'), options)).toBeTypeOf('function');
    expect(() => replicationOf(conf('  replication_snapshot_bytes = lots'), options)).toThrow("replication_snapshot_bytes: invalid size 'lots'");
    expect(() => replicationOf(conf('  replication_snapshot_interval = soon'), options)).toThrow("replication_snapshot_interval: invalid time 'soon'");
    expect(() => replicationOf(conf('  replication_snapshot_ops = 0'), options)).toThrow("replication_snapshot_ops: '0' is not a positive integer");
    expect(replicationOf(parseConfig('searchd {\n}\n'), options)).toBeUndefined();
  });
});
