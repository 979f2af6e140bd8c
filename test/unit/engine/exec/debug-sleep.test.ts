// DEBUG SLEEP N (searchd's debug grammar), which Manticore's recordings use to hold a connection
// (`LOCK TABLES t READ; debug sleep 5`, `DROP TABLE IF EXISTS t; DEBUG SLEEP 2; CREATE TABLE ...`):
// quarry answered a P02 syntax error and dropped the statements after it.
import { expect, it, vi } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('debug-sleep');

it("answers ('sleep', seconds), and the statements after it run", async () => {
  // the mysql client sends `a; b; c` as three statements
  const out = [];
  for (const sql of ['DROP TABLE IF EXISTS t', 'DEBUG SLEEP 0', "CREATE TABLE t(f text) min_infix_len='2'"]) out.push(...await t.exec(sql));
  expect(out.map((r) => r.kind)).toEqual(['ok', 'rows', 'ok']);
  const r = out[1] as { columns: { name: string }[]; rows: unknown[][] };
  expect(r.columns.map((c) => c.name)).toEqual(['command', 'result']);
  expect(r.rows[0]![0]).toBe('sleep');
  expect(r.rows[0]![1]).toMatch(/^\d+\.\d{3}$/);
  expect(await t.rows('SHOW TABLES')).toEqual([['t', 'rt']]);
});

it('takes whole seconds only, as searchd\'s grammar: a float or a sign is a syntax error, past int64 microseconds an error', async () => {
  for (const sql of ['DEBUG SLEEP 0.5', 'DEBUG SLEEP 1e7', 'DEBUG SLEEP 1e400', 'DEBUG SLEEP -1']) {
    const [r] = await t.exec(sql);
    expect((r as { message: string }).message, sql).toMatch(/^P02: syntax error/);
  }
  const [r] = await t.exec('DEBUG SLEEP 9223372036854775808');
  expect((r as { message: string }).message).toBe('P02: sleep time 9223372036854775808 out of range (at most 9223372036854 seconds)');
});

it('any other DEBUG command is a syntax error', async () => {
  const [r] = await t.exec('DEBUG FOO');
  expect(r).toMatchObject({ kind: 'error' });
  expect((r as { message: string }).message).toMatch(/^P02: syntax error/);
});

it('sleeps past what one Node timer holds (2^31 - 1 ms), not 1 ms', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout'] });
  try {
    let done = false;
    const sleeping = t.exec('DEBUG SLEEP 3000000').then(() => { done = true; }); // 3e9 ms, past 2^31 - 1
    await vi.advanceTimersByTimeAsync(2 ** 31 - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(3e9);
    await sleeping;
    expect(done).toBe(true);
  } finally {
    vi.useRealTimers();
  }
});
