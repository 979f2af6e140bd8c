/**
 * A full garbage collection on demand, for the server to run once it has gone idle after writes.
 * V8 collects its old generation only as it grows toward its limit, so after a load the heap keeps the
 * garbage of every batch (a server after 100k documents: ~146 MiB of 256 KiB heap pages) until the next
 * load pushes it; idle, nothing would. `gc` is exposed by setting the flag at run time, which affects only
 * contexts created after it: the one made here, never the application's global scope.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/** A full, compacting collection now (milliseconds for tens of MiB); the freed heap pages go back to the system. */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
