// Reproduces lmdb-js (3.5.6) corrupting its native heap after a commit fails with ENOSPC: the process
// aborts (SIGABRT, `malloc(): invalid next size (unsorted)`) that no JavaScript handler can catch; and
// an environment created on a tmpfs with no space left dies of SIGBUS.
// The writes mimic the store's (lmdb-env.ts settings; queued batches of docs and ops as group-commit
// rounds, child transactions pruning ops as the checkpointer does) on a filesystem too small for them.
//
//   m=$(mktemp -d); mount -t tmpfs -o size=3m tmpfs $m          # root
//   node scripts/lmdb-enospc-repro.mjs $m/db 4096; echo "exit $?"  # 134 (abort) 6 runs of 6
//   node scripts/lmdb-enospc-repro.mjs $m/db2 16384               # 135 (SIGBUS): created on the now full tmpfs (2 of 2)
//   umount $m
//
// On a fresh 3-16 MiB tmpfs, 16 KiB pages failed every commit after the first ENOSPC with EIO and did not
// abort (0 of 12 runs), nor with 200 KiB or 1 MiB left by a ballast file; created with none left it died
// of SIGBUS (a mapped page tmpfs cannot back).
//
// The failing commits print lmdb's own lines on stderr ("Write error: No space left on device ...
// buffer sizes 8192 484010464 484009808": garbage sizes, the heap already damaged; "mdb_page_spill error").
import { randomBytes } from 'node:crypto';
import { open } from 'lmdb';

const [path, pageSize = '4096', iterations = '400'] = process.argv.slice(2);
if (!path) throw new Error('usage: node scripts/lmdb-enospc-repro.mjs DIR [pageSize] [iterations]');
process.on('unhandledRejection', () => undefined); // lmdb-js's internal commit promises
const env = open({ path, overlappingSync: false, noSync: false, noMetaSync: false, commitDelay: 0, maxDbs: 16, pageSize: Number(pageSize) });
const docs = env.openDB('docs', { encoding: 'binary', keyEncoding: 'binary' });
const ops = env.openDB('ops', { encoding: 'binary', keyEncoding: 'binary' });
const key = (n) => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(n)); return b; };
let ok = 0, failed = 0, next = 0, pruned = 0;
for (let i = 0; i < Number(iterations); i++) {
  const n = 1 + (i % 7) * 5;
  const commits = [env.batch(() => {
    for (let k = 0; k < n; k++) {
      const id = next++;
      void docs.put(key(id), randomBytes(200 + (id * 997) % 9000));
      void ops.put(key(id), randomBytes(300));
    }
  })];
  if (i % 3 === 0) {
    commits.push(env.childTransaction(() => {
      let c = 0;
      for (const { key: k } of ops.getRange({ start: key(pruned) })) { if (c++ > 40) break; ops.removeSync(k); }
      pruned += 40;
    }));
  }
  if (i % 2 === 0) commits.push(env.batch(() => { for (let k = 0; k < n; k++) void docs.put(key(next - 1 - k), randomBytes(100 + (k * 31) % 20000)); }));
  for (const r of await Promise.allSettled(commits)) r.status === 'fulfilled' ? ok++ : failed++;
}
console.log(`commits ok=${ok} failed=${failed}, no crash`);
await env.close();
