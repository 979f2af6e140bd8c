/**
 * A snippet thread's program (src/engine/snippet-threads.ts starts it): builds a share of a page's
 * snippets with buildSnippets, the pipeline made from the table's settings as the catalog makes it.
 */
import { parentPort } from 'node:worker_threads';
import { buildSnippets } from '../highlight/snippet-builder.js';
import type { SnippetJob } from '../highlight/snippet-batch.js';
import { createTextPipeline, type TextPipeline } from '../text/text-pipeline.js';
import { installNodeHost } from './node-host.js';

installNodeHost();

/** Pipelines by their settings (a table's settings change only by RECONFIGURE or ALTER). */
const pipelines = new Map<string, TextPipeline>();

function pipelineFor(settings: SnippetJob['settings']): TextPipeline {
  const key = JSON.stringify(settings);
  let p = pipelines.get(key);
  if (!p) {
    if (pipelines.size >= 64) pipelines.clear();
    p = createTextPipeline(settings);
    pipelines.set(key, p);
  }
  return p;
}

parentPort!.on('message', ({ id, job }: { id: number; job: SnippetJob }) => {
  try {
    const env = { pipeline: pipelineFor(job.settings), settings: job.settings };
    const out = job.docs.map((d) => buildSnippets(job.root, d, job.opts, env, job.flags));
    parentPort!.postMessage({ id, out });
  } catch (e) {
    parentPort!.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
});
