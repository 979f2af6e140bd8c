/** An async mutex: one holder at a time, waiters served in arrival order. */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();
  #waiting = 0;

  /** Runs `fn` alone; the next waiter starts when it settles (resolved or rejected). */
  run<T>(fn: () => Promise<T> | T): Promise<T> {
    this.#waiting++;
    const result = this.#tail.then(() => {
      this.#waiting--;
      return fn();
    });
    this.#tail = result.then(() => undefined, () => undefined);
    return result;
  }

  /** Callers of run() whose turn has not come yet: a long holder may yield to them. */
  get waiting(): number {
    return this.#waiting;
  }
}
