// searchd replication_nats: a comma-separated list of NATS servers, checked at start.
import { describe, expect, it } from 'vitest';
import { parseReplicationNats } from '../../../src/replication/nats-option.js';

describe('replication_nats', () => {
  it('reads a comma-separated list; a bare host:port gets nats://', () => {
    expect(parseReplicationNats('nats://127.0.0.1:4222, 127.0.0.1:4223,nats://h3:4224')).toEqual(['nats://127.0.0.1:4222', 'nats://127.0.0.1:4223', 'nats://h3:4224']);
  });

  it('refuses what is not a NATS address, and an empty list', () => {
    expect(() => parseReplicationNats('http://x:1')).toThrow("replication_nats: 'http://x:1' is not a NATS server address");
    expect(() => parseReplicationNats(' , ')).toThrow('replication_nats: no NATS server named');
  });
});
