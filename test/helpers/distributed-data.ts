/** Seeded documents and random SELECTs (every full-text operator class) for the distributed-table tests. */
import { mulberry32 } from '../../bench/lib/bench-util.js';

export const SCHEMA = "(title text, body text, gid uint, price float, tags multi, ts timestamp) min_prefix_len='2'";
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];

export interface Doc {
  id: number;
  title: string;
  body: string;
  gid: number;
  price: number;
  tags: number[];
  ts: number;
}

/** The bench's seeded generator (mulberry32), so a failure names a query that can be rerun. */
export const rng = mulberry32;

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

function text(r: () => number, n: number): string {
  return Array.from({ length: 1 + Math.floor(r() * n) }, () => pick(r, WORDS)).join(' ');
}

/** Prices are quarters: their sums are exact in float32 whatever order shards add them in. */
export function makeDocs(seed: number, n: number): Doc[] {
  const r = rng(seed);
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1, title: text(r, 4), body: text(r, 12), gid: 1 + Math.floor(r() * 5), price: Math.floor(r() * 40) / 4,
    tags: [...new Set(Array.from({ length: Math.floor(r() * 3) }, () => 1 + Math.floor(r() * 6)))].sort((a, b) => a - b),
    // a time in 2023-2024, spread over days and hours without drawing from the generator
    ts: 1_672_531_200 + ((i * 7919) % 600) * 86_400 + ((i * 3631) % 86_400),
  }));
}

export function docsSql(table: string, docs: Doc[]): string {
  return `INSERT INTO ${table} (id, title, body, gid, price, tags, ts) VALUES ${docs.map((d) => `(${d.id}, '${d.title}', '${d.body}', ${d.gid}, ${d.price}, (${d.tags.join(',')}), ${d.ts})`).join(', ')}`;
}

/** One query of each operator class, with words drawn at random. */
function fullText(r: () => number): string {
  const [a, b, c] = [pick(r, WORDS), pick(r, WORDS), pick(r, WORDS)];
  return pick(r, [
    a, `${a} ${b}`, `${a} | ${b}`, `${a} -${b}`, `"${a} ${b}"`, `"${a} ${b}"~3`, `"${a} ${b} ${c}"/2`,
    `@title ${a}`, `@(title,body) ${a} ${b}`, `${a} << ${b}`, `${a} NEAR/3 ${b}`, `=${a}`, `${a.slice(0, 3)}*`,
    `^${a}`, `${a}$`, `(${a} | ${b}) -${c}`, `${a} MAYBE ${b}`, `@body "${a} ${b}"`,
  ]);
}

const FILTERS = ['', ' AND gid IN (1,2)', ' AND gid != 3', ' AND price > 3.5', ' AND price BETWEEN 2 AND 6',
  ' AND (gid = 1 OR price < 2)', ' AND tags IN (2,3)', ' AND id > 100'];

/** `$T` stands for the table; each query gets its table's rows in a full, comparable order. */
export function randomQueries(seed: number, n: number): string[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => {
    const where = `WHERE MATCH('${fullText(r)}')${pick(r, FILTERS)}`;
    return pick(r, [
      `SELECT id, gid, price, tags, title FROM $T ${where} ORDER BY id ASC LIMIT 1000`,
      `SELECT * FROM $T ${where} ORDER BY price DESC, id ASC LIMIT 5, 10`,
      `SELECT id, weight() w FROM $T ${where} ORDER BY weight() DESC, id ASC LIMIT 1000 OPTION ranker=wordcount`,
      `SELECT id, weight() w FROM $T ${where} ORDER BY weight() DESC, id ASC LIMIT 30 OPTION ranker=proximity`,
      `SELECT id, gid FROM $T ${where} ORDER BY gid ASC, id DESC LIMIT 1000`,
      `SELECT gid, COUNT(*) c, SUM(price) s, MIN(id) lo, MAX(id) hi FROM $T ${where} GROUP BY gid ORDER BY gid ASC`,
      `SELECT gid, COUNT(*) c, AVG(price) a FROM $T ${where} GROUP BY gid HAVING c > 3 ORDER BY c DESC, gid ASC`,
      `SELECT tags, COUNT(*) c FROM $T ${where} GROUP BY tags ORDER BY tags ASC`,
      // GROUP BY an expression: the agents compute the key as a select item
      `SELECT IF(price > 5, gid * 10, gid) k, COUNT(*) c, SUM(price) s FROM $T ${where} GROUP BY k ORDER BY k DESC`,
      `SELECT HISTOGRAM(price, {hist_interval=2.5}) h, COUNT(*) c FROM $T ${where} GROUP BY h ORDER BY h ASC`,
      `SELECT id, gid, price, COUNT(*) c FROM $T ${where} GROUP 2 BY gid WITHIN GROUP ORDER BY price DESC, id ASC ORDER BY gid ASC LIMIT 7`,
      `SELECT gid, GROUP_CONCAT(id ORDER BY price DESC, id ASC LIMIT 3) top, GROUP_CONCAT(price ORDER BY id DESC SEPARATOR ';' LIMIT 2) p FROM $T ${where} GROUP BY gid ORDER BY gid ASC`,
      `SELECT COUNT(*) FROM $T ${where}`,
      `SELECT id, HIGHLIGHT({limit=40}) h FROM $T ${where} ORDER BY id ASC LIMIT 200`,
    ]);
  });
}
