/**
 * Fault injection for the crash tests (test/e2e/replication/apply-crash.test.ts): a node started
 * with QUARRY_REPLICATION_CRASH=<point>:<seq>[:<n>] kills itself with SIGKILL there, as a power cut
 * would. Points: `apply-commit` (after commit n of op seq is durable), `applied` (after op seq was
 * applied, before its sequence is recorded apart or acknowledged). Unset in production: a no-op.
 */
const spec = process.env.QUARRY_REPLICATION_CRASH;

export function crashPoint(point: string, seq: number, n?: number): void {
  if (spec === undefined) return;
  if (spec === `${point}:${seq}` || (n !== undefined && spec === `${point}:${seq}:${n}`)) process.kill(process.pid, 'SIGKILL');
}
