/** Per-key async locks: one holder per key at a time, waiters served in arrival order. */
export class KeyedLock {
  #tails = new Map<string, Promise<void>>();

  /** Runs `fn` once every earlier holder of `key` has settled; resolves or rejects with it. */
  run<T>(key: string, fn: () => Promise<T> | T): Promise<T> {
    const prev = this.#tails.get(key) ?? Promise.resolve();
    const result = prev.then(fn);
    const tail = result.then(() => undefined, () => undefined);
    this.#tails.set(key, tail);
    // Forget the key once idle, so a long-lived store does not keep one entry per table ever seen.
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Whether any lock is held or waited for. */
  busy(): boolean {
    return this.#tails.size > 0;
  }

  /** Resolves when every lock taken so far has been released. */
  async idle(): Promise<void> {
    while (this.#tails.size > 0) await Promise.all([...this.#tails.values()]);
  }
}
