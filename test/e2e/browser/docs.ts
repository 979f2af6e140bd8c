/** The browser suite's documents: seeded sentences over a small vocabulary, so every operator finds matches and ties. */
import { mulberry32 } from '../../../bench/lib/bench-util.js';

const WORDS = ['search', 'searching', 'engine', 'engines', 'index', 'indexes', 'quick', 'page', 'pages', 'text', 'query', 'rank', 'ranking', 'browser', 'server', 'field', 'word', 'words', 'match', 'phrase'];

function sentence(rnd: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');
}

/** VALUES lists of 100 rows each: 400 seeded documents and one with an id beyond 2^53. */
export function browserDocs(): string[] {
  const rnd = mulberry32(12);
  const rows: string[] = [];
  for (let i = 1; i <= 400; i++) {
    rows.push(`(${i}, '${sentence(rnd, 2 + Math.floor(rnd() * 4))}', '${sentence(rnd, 8 + Math.floor(rnd() * 30))}', ${Math.floor(rnd() * 100)}, 't${i % 7}')`);
  }
  rows.push("(9007199254740993, 'bigid document', 'a bigid search page', 1, 'big')");
  const out: string[] = [];
  for (let i = 0; i < rows.length; i += 100) out.push(rows.slice(i, i + 100).join(', '));
  return out;
}
