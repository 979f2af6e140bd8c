/**
 * `node lmdb-walk.js DIR`: reads every page in use of the lmdb environment in DIR (each named database's
 * every key and value, so every branch, leaf and overflow page), read-only, and exits 0. Run by
 * lmdb-check.ts in a child process: a damaged page kills this process (SIGBUS / SIGSEGV) or makes lmdb
 * report it (exit 1 with its message), never the server.
 */
import { open } from 'lmdb';

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: lmdb-walk DIR\n');
  process.exit(2);
}
try {
  const env = open({ path: dir, readOnly: true, maxDbs: 64, encoding: 'binary' });
  const names: string[] = [];
  for (const key of env.getKeys()) names.push(String(key));
  let bytes = 0;
  let entries = 0;
  for (const name of names) {
    const db = env.openDB<Buffer, Buffer>(name, { encoding: 'binary', keyEncoding: 'binary' });
    for (const { key, value } of db.getRange({})) {
      // a sum over every byte: each page of a long value (its overflow pages) is read, not just mapped
      let sum = 0;
      for (let i = 0; i < value.length; i += 512) sum += value[i]!;
      bytes += key.length + value.length + (sum & 0);
      entries++;
    }
  }
  await env.close();
  process.stdout.write(`${names.length} databases, ${entries} entries, ${bytes} bytes\n`);
  process.exit(0);
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
}
