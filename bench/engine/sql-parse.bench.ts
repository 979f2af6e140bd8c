// bench/engine/sql-parse.bench.ts: lexing and parsing of the load's statements: 1000-row INSERTs of
// dict-gcide docs (the write path's SQL share). CPU ms, best of R rounds.
// Run: npx tsc -p tsconfig.json && node dist/bench/engine/sql-parse.bench.js [--docs N] [--rounds R]
import { tokenize } from '../../src/sql/lexer.js';
import { parseSql } from '../../src/sql/index.js';
import { loadGcide } from '../lib/corpus.js';
import { arg, sqlString } from '../lib/bench-util.js';

const BATCH = 1000;

function cpuMs(f: () => void): number {
  const t0 = process.cpuUsage();
  f();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000;
}

function main() {
  const docs = loadGcide(arg('docs', 100_000));
  const rounds = arg('rounds', 5);
  const statements: string[] = [];
  for (let i = 0; i < docs.length; i += BATCH) {
    const rows = docs.slice(i, i + BATCH).map((d) => `(${d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
    statements.push(`INSERT INTO gcide (id, title, body, len) VALUES ${rows.join(',')}`);
  }
  const lex: number[] = [];
  const parse: number[] = [];
  for (let r = 0; r < rounds; r++) {
    lex.push(cpuMs(() => { for (const s of statements) tokenize(s); }));
    parse.push(cpuMs(() => { for (const s of statements) parseSql(s); }));
  }
  const mb = statements.reduce((n, s) => n + s.length, 0) / 1e6;
  console.log(JSON.stringify({ docs: docs.length, sqlMegachars: mb, lexMs: Math.min(...lex), parseMs: Math.min(...parse) }, null, 2));
}

main();
