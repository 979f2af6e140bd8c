/**
 * Manticore's searchd settings for mirrors and agent connections: `ha_ping_interval` (ms between pings
 * of idle mirrors, 0 turns them off; default 1000), `ha_period_karma` (the length of a karma block,
 * bare numbers in seconds; default 60 s) and `persistent_connections_limit` (idle persistent
 * connections kept per agent host; default 8). Set from the config's searchd section when the engine
 * opens; a distributed table's option of the same name overrides it for that table (quarry's addition).
 */
import { SearchError } from '../../util/errors.js';

export interface HaSettings {
  pingIntervalMs: number;
  karmaPeriodMs: number;
  poolLimit: number;
}

export const HA_DEFAULTS: Readonly<HaSettings> = { pingIntervalMs: 1000, karmaPeriodMs: 60_000, poolLimit: 8 };

/** The per-table overrides a distributed table's options may set. */
export type HaOverrides = Partial<HaSettings>;

let current: HaSettings = { ...HA_DEFAULTS };

/** Sets the server-wide values (undefined keeps the default). */
export function configureHa(s: HaOverrides): void {
  current = {
    pingIntervalMs: s.pingIntervalMs ?? HA_DEFAULTS.pingIntervalMs,
    karmaPeriodMs: s.karmaPeriodMs ?? HA_DEFAULTS.karmaPeriodMs,
    poolLimit: s.poolLimit ?? HA_DEFAULTS.poolLimit,
  };
}

/** The values for one table: its own options, else the server's. */
export function haFor(t?: HaOverrides): HaSettings {
  return {
    pingIntervalMs: t?.pingIntervalMs ?? current.pingIntervalMs,
    karmaPeriodMs: t?.karmaPeriodMs ?? current.karmaPeriodMs,
    poolLimit: t?.poolLimit ?? current.poolLimit,
  };
}

/** The setting names, as Manticore spells them. */
export const HA_KEYS = { ha_ping_interval: 'pingIntervalMs', ha_period_karma: 'karmaPeriodMs', persistent_connections_limit: 'poolLimit' } as const;

/**
 * One value as Manticore reads it: ha_ping_interval in ms (0 allowed), ha_period_karma in seconds,
 * both with an optional unit (ms, s, m, h); persistent_connections_limit a positive count.
 */
export function parseHaValue(key: keyof typeof HA_KEYS, value: string, where: string): number {
  if (key === 'persistent_connections_limit') {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new SearchError('BAD_SETTING', `${where}: persistent_connections_limit='${value}': expected a positive count`);
    return n;
  }
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(value);
  if (!m) throw new SearchError('BAD_SETTING', `${where}: ${key}='${value}': expected a time such as 500ms or 2s`);
  const unit = (m[2] ?? (key === 'ha_ping_interval' ? 'ms' : 's')).toLowerCase();
  const ms = Math.round(Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as Record<string, number>)[unit]!);
  if (key === 'ha_period_karma' && ms < 1000) throw new SearchError('BAD_SETTING', `${where}: ha_period_karma must be at least 1s`);
  return ms;
}

/** The settings among `options` (key -> every value; the last one counts), parsed. */
export function haOverrides(options: Record<string, string[] | undefined>, where: string): HaOverrides {
  const out: HaOverrides = {};
  for (const [key, field] of Object.entries(HA_KEYS) as Array<[keyof typeof HA_KEYS, keyof HaSettings]>) {
    const v = options[key]?.at(-1);
    if (v !== undefined) out[field] = parseHaValue(key, v, where);
  }
  return out;
}
