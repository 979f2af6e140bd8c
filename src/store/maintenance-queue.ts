import { KeyedLock } from './keyed-lock.js';

/**
 * The store's queue of maintenance work: checkpoints, op prunes, TRUNCATE, DROP and ATTACH run one at a
 * time per table (in call order, under a per-table lock), and none runs while a backup copies files, so
 * the copied files and the lmdb snapshot describe one moment. Document writes do not pass through here
 * (doc-writes.ts orders them).
 */
export class MaintenanceQueue {
  readonly #locks = new KeyedLock();
  /** Set while a backup copies files: work queued meanwhile starts once it is done. */
  #pause: Promise<void> | undefined;

  /** Runs `fn` holding `name`'s lock, once no backup is copying files. */
  run<T>(name: string, fn: () => Promise<T> | T): Promise<T> {
    return this.#unpaused(() => this.#locks.run(name, fn));
  }

  /** Runs `fn` holding the locks of every one of `names` (taken in order), once no backup is copying. */
  runAll<T>(names: string[], fn: () => Promise<T>): Promise<T> {
    return this.#unpaused(() => this.#locked(names, fn));
  }

  /**
   * Runs `fn` (a backup) alone: later work waits for it, and it starts once earlier work has settled.
   * Two backups run one after the other.
   */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    let release!: () => void;
    while (this.#pause) await this.#pause;
    this.#pause = new Promise((r) => { release = r; });
    try {
      await this.#locks.idle();
      return await fn();
    } finally {
      this.#pause = undefined;
      release();
    }
  }

  /** Whether a backup runs or any work holds or waits for a lock. */
  busy(): boolean {
    return this.#pause !== undefined || this.#locks.busy();
  }

  /** Resolves when every lock taken so far has been released. */
  idle(): Promise<void> {
    return this.#locks.idle();
  }

  /** Runs `fn` at once unless a backup is copying files, else once it is done (fn takes its locks then). */
  #unpaused<T>(fn: () => Promise<T>): Promise<T> {
    return this.#pause ? this.#pause.then(() => this.#unpaused(fn)) : fn();
  }

  /** Runs `fn` holding the locks of `names`, taken in order. */
  #locked<T>(names: string[], fn: () => Promise<T>): Promise<T> {
    const [first, ...rest] = names;
    return first === undefined ? fn() : this.#locks.run(first, () => this.#locked(rest, fn));
  }
}
