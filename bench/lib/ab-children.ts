// bench/lib/ab-children.ts: the frame of a bench that compares this build with a baseline build by running
// itself in child processes, one per build and round, alternated (the only fair comparison on a shared
// machine). A child gets `--root DIR` (the checkout whose dist/ it imports) and prints one JSON line; the
// parent prints every child's line as a row with its build and round.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { arg, argString } from './bench-util.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** This process's CPU time (user + system) in ms. */
export function processCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * In a child: each query of `queries` (name -> SQL) checked once (a query that fails throws: a bench must not
 * time an error), run `warmups` times, then `n` times timed; `<name>CpuMs` and `<name>WallMs` a query.
 */
export async function timeQueries(
  db: { sql(q: string): Promise<{ kind: string }[]> }, queries: Record<string, string>, n: number, warmups: number,
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, sql] of Object.entries(queries)) {
    const failed = (await db.sql(sql)).find((r) => r.kind === 'error');
    if (failed) throw new Error(`${sql}: ${JSON.stringify(failed)}`);
    for (let i = 0; i < warmups; i++) await db.sql(sql);
    const cpu0 = processCpuMs(), t0 = performance.now();
    for (let i = 0; i < n; i++) await db.sql(sql);
    out[`${name}CpuMs`] = Number(((processCpuMs() - cpu0) / n).toFixed(2));
    out[`${name}WallMs`] = Number(((performance.now() - t0) / n).toFixed(2));
  }
  return out;
}

/**
 * In a child (`--root` given): runs `child(root)`. Otherwise spawns `self` once per build (`--baseline
 * DIR`, then this checkout) for `--rounds` rounds (default 3) and prints the rows. `nodeArgs` go to each
 * child's Node before its script (e.g. the flags bin/quarry.js starts Node with).
 */
export function runAlternated(self: string, child: (root: string) => Promise<void>, nodeArgs: string[] = []): void {
  const root = argString('root');
  if (root) {
    void child(root);
    return;
  }
  const baseline = argString('baseline');
  const builds: [string, string][] = [['this', ROOT]];
  if (baseline) builds.unshift(['baseline', baseline]);
  const pass = process.argv.slice(2).filter((a, i, all) => a !== '--baseline' && all[i - 1] !== '--baseline');
  const rows: Record<string, unknown>[] = [];
  for (let r = 0; r < arg('rounds', 3); r++) {
    for (const [name, dir] of builds) {
      const res = spawnSync(process.execPath, [...nodeArgs, self, ...pass, '--root', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
      if (res.status !== 0) throw new Error(`${name} run failed (${res.status})`);
      rows.push({ build: name, round: r + 1, ...JSON.parse(res.stdout.trim().split('\n').pop()!) });
    }
  }
  console.log(JSON.stringify(rows, null, 2));
}
