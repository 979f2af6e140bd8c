/**
 * The build thread's program (started by build-thread.ts): builds each job's segment with a text
 * pipeline of the job's settings (kept while they stay the same) and its own WASM core, and sends
 * the blob back (transferred, not copied) with its dictionary and host columns.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createTextPipeline, type TextPipeline } from '../../text/text-pipeline.js';
import { installNodeHost } from '../node-host.js';
import { keepInversionScratch } from '../../index/segment/inversion-scratch.js';
import { buildOfJob, primeFields, type BuildJob, type BuildPart } from './build-job.js';
import { PrimedFields } from './primed-fields.js';
import { detachFirst } from './detach-first.js';
import { phase } from '../../util/phase-trace.js';
import { warmBuild } from './warm-build.js';

phase('worker module loaded');
// each job's blob is transferred (detached): detach once now, so nothing is compiled twice (detach-first.ts)
detachFirst();
installNodeHost();
// this thread inverts one import batch after another (25,000 documents, over a million tokens each):
// its working arrays stay for the next batch up to 16 MiB each (doc-inverter.ts's scratch)
keepInversionScratch(1 << 22);
// the core's scanner instantiated and its code compiled now, while the loading thread reads the first batch
createTextPipeline({}).indexField('warm');
phase('worker warm');
/** Whether the build's code was warmed up (warm-build.ts), or a job came first (then it is warm from that). */
let warmed = false;
// the build's code warmed up now, while the loading thread loads its code, opens the engine and reads
// the first rows: run at the first priming, it was the first ~40 ms of build-thread CPU after the first
// rows arrived (the thread's work from there on is the import's critical path) and the thread had
// waited ~100 ms for them. Stops once a job is sent (the loader's flag, in workerData).
const startStop = (workerData as { stop?: Int32Array } | null)?.stop;
if (startStop) {
  warmed = true;
  try {
    warmBuild(startStop);
  } catch {
    // made-up rows only: nothing kept, nothing to undo
  }
  phase('warm build');
}
let pipeline: { key: string; pipeline: TextPipeline } | null = null;
/** The tokens primed since the last job, for the next one (primed-fields.ts). */
let primed: PrimedFields | null = null;

/** The pipeline of `settings`, kept while they stay the same. */
function pipelineOf(settings: BuildJob['settings']): TextPipeline {
  const key = JSON.stringify(settings);
  if (pipeline?.key !== key) pipeline = { key, pipeline: createTextPipeline(settings) };
  return pipeline.pipeline;
}

parentPort!.on('message', ({ id, job, prime, stop }: { id: number; job?: BuildJob; prime?: BuildPart; stop?: Int32Array }) => {
  if (prime) {
    phase(`prime ${prime.lengths.length}`);
    // a hint, answered by nothing: a failure here is the job's to meet, if it fails alike
    // the build's functions given their type feedback on made-up rows while the first batch is read
    // (warm-build.ts), unless its job was sent already; its own try: a failed warm-up skips no priming
    if (!warmed) {
      warmed = true;
      try {
        warmBuild(stop);
      } catch {
        // made-up rows only: nothing kept, nothing to undo
      }
      phase('warm build');
    }
    try {
      const p = pipelineOf(prime.settings);
      if (primed?.pipeline !== p) primed = new PrimedFields(p);
      primeFields(p, prime, stop, primed);
      phase('primed');
    } catch {
      // priming only fills the pipeline's caches; its kept tokens, maybe cut mid-field, are dropped
      primed = null;
    }
    return;
  }
  try {
    phase(`job ${id} start`);
    warmed = true;
    const kept = primed;
    primed = null;
    const built = buildOfJob(pipelineOf(job!.settings), job!, kept);
    const blob = built.blob;
    phase(`job ${id} built`);
    parentPort!.postMessage({ id, blob, terms: built.terms, hostCols: built.hostCols }, [blob.buffer as ArrayBuffer]);
    phase(`job ${id} sent`);
  } catch (e) {
    parentPort!.postMessage({ id, error: e instanceof Error ? e.stack ?? e.message : String(e) });
  }
});
