/**
 * The benchmark corpus: Debian's dict-gcide (GNU Collaborative International Dictionary of English),
 * one document per dictionary entry: title = headword, body = the entry's text. Entries that share a
 * definition (Aerate, Aerated) are one document. Install with `apt-get install dict-gcide`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export const GCIDE_DIR = '/usr/share/dictd';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export interface CorpusDoc { id: number; title: string; body: string }

/** dictd's index numbers: base64 digits, most significant first. */
function b64num(s: string): number {
  let n = 0;
  for (const ch of s) n = n * 64 + B64.indexOf(ch);
  return n;
}

export function gcideAvailable(): boolean {
  return existsSync(`${GCIDE_DIR}/gcide.index`) && existsSync(`${GCIDE_DIR}/gcide.dict.dz`);
}

/** Up to `max` entries in index order (ids 1..n), skipping the 00-database-* headers. */
export function loadGcide(max = Infinity): CorpusDoc[] {
  if (!gcideAvailable()) throw new Error('dict-gcide is not installed: apt-get install dict-gcide');
  const dict = gunzipSync(readFileSync(`${GCIDE_DIR}/gcide.dict.dz`));
  const seen = new Set<number>();
  const docs: CorpusDoc[] = [];
  for (const line of readFileSync(`${GCIDE_DIR}/gcide.index`, 'utf8').split('\n')) {
    if (docs.length >= max) break;
    const [word, off, len] = line.split('\t');
    if (!len || word.startsWith('00-database') || word.startsWith('00database')) continue;
    const offset = b64num(off);
    if (seen.has(offset)) continue;
    seen.add(offset);
    const body = dict.subarray(offset, offset + b64num(len)).toString('utf8').replace(/\s+/g, ' ').trim();
    docs.push({ id: docs.length + 1, title: word, body });
  }
  return docs;
}
