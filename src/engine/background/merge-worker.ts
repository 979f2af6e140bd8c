/**
 * The merge thread's program (started by merge-thread.ts): builds merged segments from parts it reads
 * in the core's shared memory, and sends each blob back (transferred, not copied) with its dictionary.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MergeJob } from '../../index/parallel/merge-job.js';
import { mergeSegments } from '../../index/segment/segment-merger.js';
import { SegmentView } from '../../index/segment/segment-view.js';
import { lowerThreadPriority } from './thread-priority.js';
import { detachFirst } from './detach-first.js';

// each merged blob is transferred (detached): detach once now, so the first merge's optimized code is
// not thrown away at its first transfer and compiled again (detach-first.ts; as the build thread does)
detachFirst();

const { memory, nice } = workerData as { memory: WebAssembly.Memory; nice?: number };
// merges yield a contended core to the protocol thread (merge-thread.ts, MERGE_THREAD_NICE)
if (nice) lowerThreadPriority(nice);

parentPort!.on('message', ({ id, job }: { id: number; job: MergeJob }) => {
  try {
    // the memory may have grown since the last job: its buffer now is at least as long as when the job was made
    const buffer = memory.buffer;
    const parts = job.parts.map((p) => new SegmentView(buffer, job.schema, p.blobPtr, p.terms, p.deleted));
    const built = mergeSegments(job.schema, parts);
    const blob = built.blob;
    parentPort!.postMessage({ id, blob, terms: built.terms }, [blob.buffer as ArrayBuffer]);
  } catch (e) {
    parentPort!.postMessage({ id, error: e instanceof Error ? e.stack ?? e.message : String(e) });
  }
});
