/**
 * Time slicing for long CPU work on the protocol thread (highlighting a page of hundreds of
 * documents, about 0.5 ms each): the work yields to the event loop every SLICE_MS, and the yielded
 * pieces resume one per event-loop turn, in order. Requests that arrived meanwhile (a cheap query)
 * are read and answered between two slices, so they wait for at most about one slice of the heavy
 * work in progress, however many heavy queries are queued, instead of for all of it (issue 11's
 * priority lane). Work shorter than one slice never yields.
 */

/** How long a piece of sliced work runs before it lets the event loop serve other requests. */
export const SLICE_MS = 4;

/** A later event-loop turn: setImmediate in Node (after pending I/O), a zero timeout where there is none. */
const later: (fn: () => void) => void = typeof setImmediate === 'function' ? (fn) => { setImmediate(fn); } : (fn) => { setTimeout(fn, 0); };

const waiting: Array<() => void> = [];
let pumping = false;

/** Resumes the oldest yielded piece; the next one waits for another turn, so I/O runs between them. */
function pump(): void {
  const next = waiting.shift();
  if (waiting.length) later(pump);
  else pumping = false;
  next?.();
}

/** Resolves in a later event-loop turn than any request already waiting to be read. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!pumping) {
      pumping = true;
      later(pump);
    }
  });
}

/** `items.map(fn)`, yielding a turn (nextTurn) whenever SLICE_MS have passed since the last yield. */
export async function mapSliced<T, R>(items: readonly T[], fn: (item: T, i: number) => R): Promise<R[]> {
  const out: R[] = [];
  let since = performance.now();
  for (let i = 0; i < items.length; i++) {
    if (performance.now() - since >= SLICE_MS) {
      await nextTurn();
      since = performance.now();
    }
    out.push(fn(items[i]!, i));
  }
  return out;
}
