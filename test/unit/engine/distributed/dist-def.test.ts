import { describe, expect, it } from 'vitest';
import { createText, describeRows, distributedDef, parseAgent, parseMs } from '../../../../src/engine/distributed/dist-def.js';

const isLocal = (n: string) => ['t1', 't2'].includes(n.toLowerCase());

describe('agent lines', () => {
  it('reads host:port:table, a default port, and mirrors sharing the trailing table list', () => {
    expect(parseAgent('d', '127.0.0.1:9313:t3', 'agent').mirrors).toEqual([{ host: '127.0.0.1', port: 9313, indexes: 't3' }]);
    expect(parseAgent('d', 'box:t3', 'agent').mirrors).toEqual([{ host: 'box', port: 9312, indexes: 't3' }]);
    expect(parseAgent('d', 'h1:9312|h2:9313:t4,t5', 'agent').mirrors).toEqual([
      { host: 'h1', port: 9312, indexes: 't4,t5' }, { host: 'h2', port: 9313, indexes: 't4,t5' }]);
    expect(parseAgent('d', 'h1:1:a|h2:2:b', 'agent').mirrors.map((m) => m.indexes)).toEqual(['a', 'b']);
    const opts = parseAgent('d', 'h1:1:a[conn=pconn, blackhole=1]', 'agent');
    expect([opts.persistent, opts.blackhole]).toEqual([true, true]);
  });

  it('refuses a line without a table, a bad port or a bad table name', () => {
    expect(() => parseAgent('d', 'h1:9312', 'agent')).toThrow("table 'd': invalid agent line 'h1:9312': no remote table name");
    expect(() => parseAgent('d', 'h1:70000:t', 'agent')).toThrow(/port 70000 out of range/);
    expect(() => parseAgent('d', 'h1:1:t-x', 'agent')).toThrow(/bad table name 't-x'/);
  });
});

describe('distributed definitions', () => {
  it('accumulates local and agent values, reads strategy, timeouts and retries', () => {
    const d = distributedDef('D', {
      type: ['distributed'], local: ['t1', 't2'], agent: ['h:1:a'], agent_blackhole: ['h:2:b'], ha_strategy: ['roundrobin'],
      agent_connect_timeout: ['500'], agent_query_timeout: ['2s'], mirror_retry_count: ['2'],
    }, isLocal);
    expect(d).toMatchObject({ name: 'd', locals: ['t1', 't2'], haStrategy: 'roundrobin', connectTimeoutMs: 500, queryTimeoutMs: 2000, retryCount: 2 });
    expect(d.agents.map((a) => [a.key, a.blackhole])).toEqual([['agent', false], ['agent_blackhole', true]]);
    expect(describeRows(d)).toEqual([['t1', 'local'], ['t2', 'local'], ['h:1:a', 'remote_1'], ['h:2:b', 'blackhole_2']]);
    expect(createText(d)).toBe("CREATE TABLE d type='distributed' local='t1' local='t2' agent='h:1:a' agent_blackhole='h:2:b' ha_strategy='roundrobin' agent_connect_timeout='500' agent_query_timeout='2000' agent_retry_count='2'");
  });

  it("gives Manticore's errors for a missing local, an empty table and unknown settings", () => {
    expect(() => distributedDef('d', { local: ['nosuch'] }, isLocal)).toThrow("table 'd': no such local table 'nosuch'");
    expect(() => distributedDef('d', { type: ['distributed'] }, isLocal)).toThrow("table 'd': no valid local/remote tables in distributed table");
    expect(() => distributedDef('d', { local: ['t1'], morphology: ['stem_en'] }, isLocal)).toThrow("setting not allowed: morphology='stem_en'");
    expect(() => distributedDef('d', { local: ['t1'], ha_strategy: ['fastest'] }, isLocal)).toThrow(/ha_strategy \(fastest\) is unknown/);
    expect(() => distributedDef('d', { local: ['t1'], agent_retry_count: ['0'] }, isLocal)).toThrow('agent_retry_count must be positive');
  });

  it('reads times in ms, s and m', () => {
    expect([parseMs('d', 'k', '250'), parseMs('d', 'k', '250ms'), parseMs('d', 'k', '1.5s'), parseMs('d', 'k', '1m')]).toEqual([250, 250, 1500, 60000]);
    expect(() => parseMs('d', 'k', 'soon')).toThrow(/expected a time/);
  });
});
