// ha_ping_interval, ha_period_karma and persistent_connections_limit: read as Manticore writes them
// (units, defaults), from the searchd section when the engine opens and from a distributed table's
// options, the table's value winning; the table's pool and SHOW CREATE TABLE carry them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentOptions, closeTablePool } from '../../../../src/engine/distributed/agent-pools.js';
import { createText, distributedDef } from '../../../../src/engine/distributed/dist-def.js';
import { configureHa, HA_DEFAULTS, haFor, parseHaValue } from '../../../../src/engine/distributed/ha-settings.js';
import { openEngine } from '../../../../src/engine/index.js';

afterEach(() => configureHa({}));

describe('the HA settings', () => {
  it('read times with Manticore\'s units: ping interval in ms, karma period in seconds', () => {
    expect(parseHaValue('ha_ping_interval', '250', 'searchd')).toBe(250);
    expect(parseHaValue('ha_ping_interval', '0', 'searchd')).toBe(0);
    expect(parseHaValue('ha_ping_interval', '2s', 'searchd')).toBe(2000);
    expect(parseHaValue('ha_period_karma', '30', 'searchd')).toBe(30_000);
    expect(parseHaValue('ha_period_karma', '2m', 'searchd')).toBe(120_000);
    expect(() => parseHaValue('ha_period_karma', '500ms', 'searchd')).toThrow('searchd: ha_period_karma must be at least 1s');
    expect(() => parseHaValue('ha_ping_interval', 'soon', "table 'd'")).toThrow("table 'd': ha_ping_interval='soon': expected a time such as 500ms or 2s");
    expect(parseHaValue('persistent_connections_limit', '3', 'searchd')).toBe(3);
    expect(() => parseHaValue('persistent_connections_limit', '0', 'searchd')).toThrow('expected a positive count');
  });

  it('come from the searchd section at engine open; a table\'s options override them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-ha-'));
    const engine = await openEngine({ dataDir: dir, searchdHa: { ha_ping_interval: ['0'], ha_period_karma: ['10s'], persistent_connections_limit: ['2'] } });
    try {
      expect(haFor()).toEqual({ pingIntervalMs: 0, karmaPeriodMs: 10_000, poolLimit: 2 });
      const def = distributedDef('dha', { agent: ['127.0.0.1:9:t'], ha_ping_interval: ['300'], persistent_connections_limit: ['5'] }, () => false);
      expect(haFor(def.ha)).toEqual({ pingIntervalMs: 300, karmaPeriodMs: 10_000, poolLimit: 5 });
      expect(createText(def)).toBe("CREATE TABLE dha type='distributed' agent='127.0.0.1:9:t' ha_ping_interval='300ms' persistent_connections_limit='5'");
      expect(distributedDef('dha', { agent: ['127.0.0.1:9:t'], ha_period_karma: ['2m'] }, () => false).ha).toEqual({ karmaPeriodMs: 120_000 });
    } finally {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
    await expect(openEngine({ dataDir: dir, searchdHa: { ha_period_karma: ['0'] } })).rejects.toThrow('searchd: ha_period_karma must be at least 1s');
  });

  it('size a persistent table\'s pool by its persistent_connections_limit, else the searchd value', () => {
    configureHa({ poolLimit: 3 });
    const own = distributedDef('dpool1', { agent_persistent: ['127.0.0.1:9:t'], persistent_connections_limit: ['6'] }, () => false);
    const inherited = distributedDef('dpool2', { agent_persistent: ['127.0.0.1:9:t'] }, () => false);
    expect(agentOptions(own, own.agents[0]!).pool!.limit).toBe(6);
    expect(agentOptions(inherited, inherited.agents[0]!).pool!.limit).toBe(3);
    closeTablePool('dpool1');
    closeTablePool('dpool2');
    configureHa({});
    expect(haFor()).toEqual(HA_DEFAULTS);
  });
});
