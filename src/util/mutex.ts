/** An async mutex: one holder at a time, waiters served in arrival order. */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  /** Runs `fn` alone; the next waiter starts when it settles (resolved or rejected). */
  run<T>(fn: () => Promise<T> | T): Promise<T> {
    const result = this.#tail.then(fn);
    this.#tail = result.then(() => undefined, () => undefined);
    return result;
  }
}
