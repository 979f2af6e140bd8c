// Logged rounds (src/store/write-log/logged-rounds.ts) at close: a round still being written to the log
// lands, goes to lmdb with the rest, and the log ends empty.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDbs } from '../../../../src/store/lmdb-env.js';
import { LoggedRounds } from '../../../../src/store/write-log/logged-rounds.js';
import { oneDocRound } from './one-doc-round.js';

let root: string;
beforeAll(() => { root = mkdtempSync(join(tmpdir(), 'quarry-logged-rounds-')); });
afterAll(() => { rmSync(root, { recursive: true, force: true }); });

const round = oneDocRound;

it('close with rounds still being written to the log: they land in lmdb and the log ends empty', async () => {
  const dbs = openDbs(join(root, 'store'));
  const path = join(root, 'write-log');
  const logged = LoggedRounds.open(path, () => dbs, new Set([1]), false);
  const rounds = [round(1n, 'one'), round(2n, 'two'), round(3n, 'three')];
  const appends = rounds.map((r) => logged.append({ round: r, docs: new Map(), bytes: 100 }));
  await logged.close(); // called while the records are being written, none awaited
  await Promise.all(appends);
  for (const r of rounds) expect(dbs.docs.get(r.puts[0]!.key)).toEqual(r.puts[0]!.value);
  expect(statSync(path).size).toBe(0);
  await dbs.env.close();
});
