/**
 * The snippet threads (Node): worker_threads each running src/engine/snippet-worker.ts, to which
 * src/highlight/snippet-batch.ts sends shares of a page. Spawned on first use, unref'd (an idle one
 * never keeps the process alive); a share goes to the thread with the fewest in flight. A thread that
 * fails rejects its shares (the caller builds them itself) and is replaced on the next use.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { setSnippetThreads, type SnippetJob, type SnippetThreads } from '../highlight/snippet-batch.js';
import type { PassageText } from '../highlight/snippet-render.js';
import { packageRoot } from './node-host.js';

type Reply = { id: number; out?: PassageText[][][]; error?: string };

interface Pending { resolve(v: PassageText[][][]): void; reject(e: Error): void }

class SnippetThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #next = 0;
  dead = false;

  constructor(file: string) {
    this.#worker = new Worker(file);
    this.#worker.unref();
    this.#worker.on('message', (r: Reply) => {
      const p = this.#pending.get(r.id);
      if (!p) return;
      this.#pending.delete(r.id);
      if (r.out) p.resolve(r.out); else p.reject(new Error(r.error ?? 'snippet thread failed'));
    });
    const fail = (e: unknown) => {
      this.dead = true;
      for (const p of this.#pending.values()) p.reject(e instanceof Error ? e : new Error(String(e)));
      this.#pending.clear();
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', () => fail(new Error('snippet thread exited')));
  }

  get inFlight(): number { return this.#pending.size; }

  run(job: SnippetJob): Promise<PassageText[][][]> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, job });
    });
  }

  terminate(): Promise<number> { return this.#worker.terminate(); }
}

/** The worker program, compiled (dist/): under vitest too, the threads run the built code. */
export function snippetWorkerFile(): string | null {
  const file = join(packageRoot(), 'dist/src/engine/snippet-worker.js');
  return existsSync(file) ? file : null;
}

let pool: SnippetThread[] = [];

/**
 * `count` snippet threads for pages of highlights (0: every page is built on the calling thread);
 * returns what it installed (null: none, or the compiled worker is missing). The engine asks for one
 * fewer than its query threads: the protocol thread builds a share too.
 */
export function configureSnippetThreads(count: number): SnippetThreads | null {
  for (const t of pool) void t.terminate();
  pool = [];
  const file = count > 0 ? snippetWorkerFile() : null;
  if (!file) { setSnippetThreads(null); return null; }
  const slots: (SnippetThread | null)[] = Array.from({ length: count }, () => null);
  const threads: SnippetThreads = {
    count,
    run(job) {
      let best = 0;
      for (let i = 0; i < slots.length; i++) {
        if (!slots[i] || slots[i]!.dead) slots[i] = new SnippetThread(file);
        if (slots[i]!.inFlight < slots[best]!.inFlight) best = i;
      }
      pool = slots as SnippetThread[];
      return slots[best]!.run(job);
    },
  };
  setSnippetThreads(threads);
  return threads;
}
