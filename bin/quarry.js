#!/bin/sh
":" //; export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}" MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}" MALLOC_TRIM_THRESHOLD_="${MALLOC_TRIM_THRESHOLD_:-131072}"; exec node "$0" "$@"
// quarry command line; runs the compiled server (npm run build first).
//
// The file is both a shell script and an ES module. Run as a program (`bin/quarry.js`, `npx quarry`,
// `npm start`), the shell line above sets glibc's malloc tuning, unless already set, and execs Node on this
// file in the same process; Node reads the line as a string and a comment. Why: glibc raises its mmap
// threshold to the size of each large block freed (up to 32 MiB) and trims only above twice that, so the
// transient buffers of merges and checkpoints (tens of MiB) stay in the heap afterwards, 42-87 MiB at 100k
// documents, different each run; a fixed threshold returns them to the system. A process started as
// `node bin/quarry.js` skips the line: set the three variables in its environment for the same effect.
import { exitSoon, main } from '../dist/src/server/cli.js';

const code = await main(process.argv.slice(2));
if (code !== undefined) exitSoon(code);
