// ServerMetrics (src/metrics/metrics.ts): the open connections SHOW THREADS / PROCESSLIST list.
import { describe, expect, it } from 'vitest';
import { ServerMetrics } from '../../../src/metrics/metrics.js';

describe('ServerMetrics connections', () => {
  it('numbers connections from 1 (the MySQL handshake sends this id), each once, and forgets closed ones', () => {
    const m = new ServerMetrics();
    const a = m.open('mysql', '127.0.0.1:1000');
    const b = m.open('http', '127.0.0.1:1001');
    expect([a, b]).toEqual([1, 2]);
    m.close(a);
    expect(m.activities().map((x) => x.connId)).toEqual([2]);
    expect(m.connections).toBe(2);
  });
});
