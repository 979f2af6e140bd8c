/**
 * The page of bench/embedded/browser.bench.ts: quarry's module on an exported folder, MiniSearch and
 * FlexSearch on the same documents, the same queries timed in the same page (performance.now()).
 */

/** One query of a class, with what each engine is asked (peers lack quarry's operators: nearest equivalent). */
export interface BenchQuery { cls: string; quarry: string; mini: { q: string; and: boolean; prefix: boolean }; flex: string | null }

export const BENCH_PAGE = `<!doctype html><meta charset="utf-8"><title>quarry browser bench</title>
<script type="module">
import { openIndex } from './quarry-browser.js';
import MiniSearch from './minisearch.js';
import { Index } from './flexsearch.js';

const time = async (f) => { const t = performance.now(); const r = await f(); return [performance.now() - t, r]; };

let idx;
window.quarryOpen = async () => { const [ms, i] = await time(() => openIndex('./')); idx = i; return ms; };
window.quarryFirst = async (q) => (await time(() => idx.search(q, { limit: 20, highlight: {} })))[0];
window.quarryRun = async (queries) => {
  const out = { cold: [], warm: [] };
  for (const q of queries) out.cold.push((await time(() => idx.search(q.quarry, { limit: 20 })))[0]);
  for (const q of queries) out.warm.push((await time(() => idx.search(q.quarry, { limit: 20 })))[0]);
  return out;
};

window.runPeers = async (queries) => {
  const docs = await (await fetch('./docs.json')).json();
  const out = {};
  const mini = new MiniSearch({ fields: ['title', 'body'] });
  out.miniIndexMs = (await time(() => mini.addAll(docs)))[0];
  out.mini = queries.map((q) => {
    const t = performance.now();
    mini.search(q.mini.q, { combineWith: q.mini.and ? 'AND' : 'OR', prefix: q.mini.prefix }).slice(0, 20);
    return performance.now() - t;
  });
  const flex = new Index({ tokenize: 'strict' });
  out.flexIndexMs = (await time(() => { for (const d of docs) flex.add(d.id, d.title + ' ' + d.body); }))[0];
  out.flex = queries.map((q) => {
    if (q.flex === null) return null;
    const t = performance.now();
    flex.search(q.flex, { limit: 20 });
    return performance.now() - t;
  });
  return out;
};
</script>`;
