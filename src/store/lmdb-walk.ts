/**
 * The page walk lmdb-check.ts runs in a child process: `node --input-type=module -e WALK_SCRIPT LMDB DIR`
 * reads every page in use of the lmdb environment in DIR (each named database's every key and value, so
 * every branch, leaf and overflow page), read-only, and exits 0. A damaged page kills that process (SIGBUS /
 * SIGSEGV) or makes lmdb report it (exit 1 with its message), never the server. A script, not a file the
 * child runs, so it works the same from the TypeScript sources (tests), dist/ and the bundled `quarry
 * import`; LMDB is the lmdb package's entry as the parent resolved it (the child's cwd may have no
 * node_modules).
 */
export const WALK_SCRIPT = `
const [, lmdbPath, dir] = process.argv;
try {
  const lmdb = await import(new URL('file://' + lmdbPath).href);
  const open = lmdb.open ?? lmdb.default.open;
  const env = open({ path: dir, readOnly: true, maxDbs: 64, encoding: 'binary' });
  const names = [];
  for (const key of env.getKeys()) names.push(String(key));
  let bytes = 0, entries = 0, sum = 0;
  for (const name of names) {
    const db = env.openDB(name, { encoding: 'binary', keyEncoding: 'binary' });
    for (const { key, value } of db.getRange({})) {
      // one byte of every 512 summed: each page of a long value (its overflow pages) is read, not just mapped
      for (let i = 0; i < value.length; i += 512) sum = (sum + value[i]) | 0;
      bytes += key.length + value.length;
      entries++;
    }
  }
  await env.close();
  process.stdout.write(names.length + ' databases, ' + entries + ' entries, ' + bytes + ' bytes, sum ' + sum + '\\n');
  process.exit(0);
} catch (e) {
  process.stderr.write(String(e && e.message || e) + '\\n');
  process.exit(1);
}
`;
