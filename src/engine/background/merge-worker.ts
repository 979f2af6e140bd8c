/**
 * The merge thread's program (started by merge-thread.ts): builds merged segments from parts it reads
 * in the core's shared memory, and sends each blob back (transferred, not copied) with its dictionary
 * (in chunks, merge-wire.ts) and the row maps it merged with. It keeps the dictionary of each segment
 * it built until that segment is merged again or its key is forgotten: a job over it sends the key only;
 * other parts' dictionaries arrive ahead of their job (AddMessage).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { mergeWithRowMaps } from '../../index/segment/segment-merger.js';
import { SegmentView } from '../../index/segment/segment-view.js';
import { appendTerms } from '../../index/segment/sorted-terms.js';
import { TERMS_CHUNK, type AddMessage, type JobMessage, type MoreMessage, type ReplyMessage } from './merge-wire.js';
import { lowerThreadPriority } from './thread-priority.js';
import { detachFirst } from './detach-first.js';
import { phase, tracing } from '../../util/phase-trace.js';

// each merged blob is transferred (detached): detach once now, so the first merge's optimized code is
// not thrown away at its first transfer and compiled again (detach-first.ts; as the build thread does)
detachFirst();

const { memory, nice } = workerData as { memory: WebAssembly.Memory; nice?: number };
// merges yield a contended core to the protocol thread (merge-thread.ts, MERGE_THREAD_NICE)
if (nice) lowerThreadPriority(nice);

/** Dictionaries of the segments this thread built, by key. */
const kept = new Map<number, readonly string[]>();
let nextKey = 1;
/** Replies being sent chunk by chunk, by job id. */
const sending = new Map<number, { reply: Required<Omit<ReplyMessage, 'error'>>; at: number }>();

/** Sends the next chunk of job `id`'s reply: the last one carries the blob and the row maps. */
function sendNext(id: number): void {
  const s = sending.get(id);
  if (!s) return;
  const { terms } = s.reply;
  if (terms.length - s.at > TERMS_CHUNK) {
    parentPort!.postMessage({ id, terms: terms.slice(s.at, s.at + TERMS_CHUNK) } satisfies ReplyMessage);
    s.at += TERMS_CHUNK;
    return;
  }
  sending.delete(id);
  const { blob, key, forward } = s.reply;
  const last: ReplyMessage = { id, terms: s.at ? terms.slice(s.at) : terms, blob, key, forward };
  parentPort!.postMessage(last, [blob.buffer as ArrayBuffer, ...forward.map((f) => f.buffer as ArrayBuffer)]);
}

function runJob({ id, job, forget }: JobMessage): void {
  for (const k of forget) kept.delete(k);
  try {
    // the memory may have grown since the last job: its buffer now is at least as long as when the job was made
    const buffer = memory.buffer;
    const parts = job.parts.map((p) => {
      const terms = kept.get(p.key);
      if (!terms) throw new Error(`no dictionary kept under key ${p.key}`);
      return new SegmentView(buffer, job.schema, p.blobPtr, terms, p.deleted);
    });
    const t0 = tracing ? performance.now() : 0;
    const { built, maps } = mergeWithRowMaps(job.schema, parts);
    if (tracing) phase(`merge built bytes=${built.blob.length} ms=${(performance.now() - t0).toFixed(1)}`);
    const key = nextKey++;
    kept.set(key, built.terms);
    sending.set(id, { reply: { id, terms: built.terms, blob: built.blob, key, forward: maps }, at: 0 });
    sendNext(id);
  } catch (e) {
    parentPort!.postMessage({ id, error: e instanceof Error ? e.stack ?? e.message : String(e) } satisfies ReplyMessage);
  } finally {
    // a part is merged once: the protocol thread sends its dictionary again if it is ever in a job again
    for (const p of job.parts) kept.delete(p.key);
  }
}

/** A chunk of a dictionary sent ahead of a job. */
function add({ add: key, terms }: AddMessage): void {
  const to = kept.get(key) as string[] | undefined;
  // packed, as the dictionaries this thread builds (sorted-terms.ts appendTerms says why)
  if (!to) kept.set(key, appendTerms([], terms));
  else appendTerms(to, terms);
}

parentPort!.on('message', (m: JobMessage | MoreMessage | AddMessage) => {
  if ('more' in m) sendNext(m.more);
  else if ('add' in m) add(m);
  else runJob(m);
});
