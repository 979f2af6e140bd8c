// bench/lib/v8-log.ts: V8's optimizing compiles and deopts of a server's main isolate inside a timed window, from
// the logs V8 writes with --log-code --log-deopt (one file an isolate: DIR/isolate-<addr>-<pid>-<pid>.log).
// Why: in insert-ab's 16-client phase most of the server's CPU off its protocol thread is TurboFan compiling
// (session 29: ~80% of those threads' perf samples), and which functions compile there, and whether they had
// been compiled before (code lost to a deopt or a collection) is what tells a fix where to look. V8's log
// times are microseconds since its isolate started, so a window in epoch ms is placed by the process's
// start time (/proc: 10 ms steps). The isolate starts later than the process (~300 ms at load 18: a child's
// compile logged 0.3 s before the epoch its own clock gave), so an event's time read this way comes out
// early by that much: a caller starts its window up to 1 s before what it wants to see (insert-ab: the idle
// wait before the timed phase, where only the new connections' deopts fall).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Node flags that make the server write the logs read here into `dir` (a diagnostic: logging costs CPU). */
export function v8LogArgs(dir: string): string[] {
  return ['--log-code', '--log-deopt', `--logfile=${join(dir, '%p.log')}`];
}

/** When process `pid` started, epoch ms (read while it runs). */
export function processStartEpochMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  // the boot time from /proc/uptime (10 ms steps): /proc/stat's btime is whole seconds, up to 1 s off
  const bootEpochMs = Date.now() - Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 1000;
  return bootEpochMs + startTicks * 10; // USER_HZ 100
}

/** One TurboFan compile or deopt: isolate µs, what, where. */
interface V8Event { us: number; kind: 'opt' | 'deopt'; name: string; where: string }

function eventsOf(file: string): V8Event[] {
  const out: V8Event[] = [];
  for (const line of readFileSync(file, 'latin1').split('\n')) {
    if (line.startsWith('code-creation,JS,13,')) {
      // code-creation,JS,<kind 13: TurboFan>,<µs>,<address>,<size>,<name and position>,...
      const f = line.split(',');
      const name = f[6] ?? '';
      out.push({ us: Number(f[3]), kind: 'opt', name, where: name.slice(name.lastIndexOf(' ') + 1) });
    } else if (line.startsWith('code-deopt,')) {
      // code-deopt,<µs>,<size>,<address>,<inlining id>,<offset>,<bailout kind>,<position>,<reason>
      const f = line.split(',');
      out.push({ us: Number(f[1]), kind: 'deopt', name: `${f[6]} ${f[8] ?? ''}`, where: f[7] ?? '' });
    }
  }
  return out;
}

/** The area of a source position: quarry's top folder (mysql, engine, store...), 'node' or a package. */
function areaOf(where: string): string {
  const src = /\/dist\/src\/([^/]+)\//.exec(where);
  if (src) return src[1]!;
  if (where.startsWith('node:') || where.startsWith('<node:')) return 'node';
  const pkg = /node_modules\/([^/]+)\//.exec(where);
  return pkg ? pkg[1]! : 'other';
}

/**
 * The main isolate's compiles and deopts of process `pid` between `fromMs` and `toMs` (epoch): counts, compiles
 * by area, how many of the functions compiled had been compiled earlier in the process, and the compiled names.
 * The main isolate's log is the one that names `mainMarker` (a file only it runs).
 */
export function windowCompiles(dir: string, pid: number, startEpochMs: number, fromMs: number, toMs: number, mainMarker = '/src/mysql/connection.js'): Record<string, number | string> {
  // the main isolate is the one that ran the protocol code (`mainMarker`); workers (merges, builds) have their own files
  const files = readdirSync(dir).filter((f) => f.endsWith(`-${pid}-${pid}.log`)).map((f) => join(dir, f));
  const main = files.find((f) => readFileSync(f, 'latin1').includes(mainMarker));
  if (!main) return { 'v8 log': 'no main-isolate log' };
  const from = (fromMs - startEpochMs) * 1000;
  const to = (toMs - startEpochMs) * 1000;
  const before = new Set<string>();
  const areas = new Map<string, number>();
  let compiles = 0;
  let again = 0;
  let deopts = 0;
  const names: string[] = [];
  for (const e of eventsOf(main).sort((a, b) => a.us - b.us)) {
    if (e.us < from) {
      if (e.kind === 'opt') before.add(e.where);
      continue;
    }
    if (e.us > to) break;
    if (e.kind === 'deopt') { deopts++; continue; }
    compiles++;
    if (before.has(e.where)) again++;
    areas.set(areaOf(e.where), (areas.get(areaOf(e.where)) ?? 0) + 1);
    names.push(e.name.replace(/file:\/\/\S*\/dist\/src\//, ''));
  }
  return {
    'timed compiles': compiles,
    'timed compiles seen before': again,
    'timed deopts': deopts,
    'timed compiles by area': [...areas].sort((a, b) => b[1] - a[1]).map(([a, n]) => `${a} ${n}`).join(', '),
    'timed compiled': names.join('; '),
  };
}
