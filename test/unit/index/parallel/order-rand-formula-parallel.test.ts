// RAND() inside an ORDER BY formula on worker threads: each thread's core computes the keys of its rows (RAND_ID
// with the statement's seed, sort-code.ts), and the answer (rows, order, SHOW META) is the one thread's.
import { describe, expect, it } from 'vitest';
import { setQueryThreads } from '../../../../src/index/parallel/query-threads.js';
import { THREADS, useParallelEngine } from './parallel-engine.js';

const WORDS = ['apple', 'banana', 'cherry', 'dates', 'elder'];

const { sql, answer, tasksRun } = useParallelEngine('quarry-rand-formula-', async (sql) => {
  const [r] = await sql('CREATE TABLE t (title text, gid int, price float)');
  if (r.kind === 'error') throw new Error(r.message);
  let id = 1;
  for (let b = 0; b < 10; b++) {
    const rows = Array.from({ length: 1000 }, () => {
      const n = id++;
      const words = `${WORDS[n % 5]} ${WORDS[(n * 7) % 5]} ${WORDS[(n * 3) % 4]} apple banana cherry`;
      // many hits a row: the queries' cost (docs and hits) reaches the tests' threshold, TEST_MIN_COST
      return `(${n}, '${words} ${words} ${words}', ${n % 100}, ${(n % 37) / 4})`;
    });
    const [ins] = await sql(`INSERT INTO t (id, title, gid, price) VALUES ${rows.join(',')}`);
    if (ins.kind === 'error') throw new Error(ins.message);
  }
  await sql('OPTIMIZE TABLE t OPTION sync=1');
});

describe('RAND() in an ORDER BY formula on threads', () => {
  it('orders as one thread does, for each seed, and seeds differ', async () => {
    await setQueryThreads(THREADS);
    await answer("SELECT id FROM t WHERE MATCH('apple')"); // starts the pool
    const queries = [
      (s: number) => `SELECT id, rand()*2+price AS k FROM t WHERE MATCH('apple | banana') ORDER BY k ASC LIMIT 40 OPTION rand_seed=${s}`,
      (s: number) => `SELECT id, gid, if(rand()>0.5, gid, -gid) AS k FROM t WHERE MATCH('cherry') ORDER BY k DESC, id ASC LIMIT 5, 30 OPTION rand_seed=${s}`,
      (s: number) => `SELECT id, rand(77)*price - rand() AS k FROM t WHERE MATCH('banana') AND gid > 10 ORDER BY k ASC LIMIT 40 OPTION rand_seed=${s}`,
    ];
    for (const q of queries) {
      const answers: unknown[] = [];
      for (const seed of [9, 10]) {
        await setQueryThreads(1);
        const one = await answer(q(seed));
        const before = await tasksRun();
        const many = await answer(q(seed));
        const after = await tasksRun();
        expect(after.filter((n, i) => n > before[i]!).length).toBeGreaterThan(1); // the query was spread
        expect(many).toEqual(one);
        answers.push(one);
      }
      expect(answers[1]).not.toEqual(answers[0]);
    }
    expect(THREADS).toBeGreaterThan(1);
    await setQueryThreads(1);
  }, 60_000);
});
