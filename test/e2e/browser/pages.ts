/** The test pages: one that imports quarry-browser.js on the main thread, one module worker doing the same. */
import type { SearchOptions } from '../../../src/browser/page-index.js';

export interface PageCase { q: string; opts?: SearchOptions & { highlight?: Record<string, unknown> } }

/** Runs every case in order; an error becomes `{ error: message }`. */
const RUN = `
async function runAll(idx, cases) {
  // the first cases at once, on a fresh index (their chunks fetched concurrently), then all in turn
  const parallel = await Promise.all(cases.slice(0, 8).map((c) => idx.search(c.q, c.opts).catch((e) => ({ error: e.message }))));
  const answers = [];
  for (const c of cases) {
    try { answers.push(await idx.search(c.q, c.opts)); } catch (e) { answers.push({ error: e.message }); }
  }
  let unknownOption = null;
  try { await idx.search('search', { limt: 5 }); } catch (e) { unknownOption = e.message; }
  return { answers, parallel, unknownOption };
}`;

export const WORKER = `
import { openIndex } from './quarry-browser.js';
${RUN}
const opened = openIndex('./');
onmessage = async (e) => {
  const idx = await opened;
  postMessage({ ...(await runAll(idx, e.data)), describe: idx.describe() });
};
`;

export const PAGE = `<!doctype html><meta charset="utf-8"><title>quarry page test</title>
<script type="module">
import { openIndex } from './quarry-browser.js';
${RUN}
window.runCases = async (cases, inWorker, source = './') => {
  const isolated = self.crossOriginIsolated === true;
  if (!inWorker) {
    const idx = await openIndex(source);
    return { ...(await runAll(idx, cases)), describe: idx.describe(), isolated };
  }
  const w = new Worker('./worker.js', { type: 'module' });
  const out = await new Promise((resolve, reject) => { w.onmessage = (e) => resolve(e.data); w.onerror = (e) => reject(new Error(e.message)); w.postMessage(cases); });
  w.terminate();
  return { ...out, isolated };
};
</script>`;
