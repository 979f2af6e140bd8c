#!/bin/sh
":" //; export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}" MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}" MALLOC_TRIM_THRESHOLD_="${MALLOC_TRIM_THRESHOLD_:-131072}" MALLOC_CONF="${MALLOC_CONF:-narenas:2,dirty_decay_ms:1000,muzzy_decay_ms:0}"; [ -n "${LD_PRELOAD+x}" ] || for j in /usr/lib/x86_64-linux-gnu/libjemalloc.so.2 /usr/lib/aarch64-linux-gnu/libjemalloc.so.2 /usr/lib64/libjemalloc.so.2; do [ -r "$j" ] && export LD_PRELOAD="$j" && break; done; [ "$1" = import ] && exec node "$0" "$@"; exec node --min-semi-space-size=4 "$0" "$@"
// quarry command line; runs the compiled server (npm run build first).
//
// The file is both a shell script and an ES module. Run as a program (`bin/quarry.js`, `npx quarry`,
// `npm start`), the shell line above sets glibc's malloc tuning, unless already set, preloads jemalloc
// where it is installed (Debian's libjemalloc2) unless LD_PRELOAD is set (even empty: `LD_PRELOAD=` keeps
// glibc's malloc), and execs Node on this file in the same process; Node reads the line as a string and a
// comment. Why: glibc raises its mmap threshold to the size of each large block freed (up to 32 MiB) and
// trims only above twice that, so the transient buffers of merges and checkpoints (tens of MiB) stay in
// the heap afterwards, 42-87 MiB at 100k documents, different each run; a fixed threshold returns them to
// the system, but free blocks below the heap's top stay (19-45 MiB of `[heap]` at rest after 100k gcide
// and queries). jemalloc returns freed pages of any place after a few seconds: the same server at rest,
// 125-135 MiB PSS with glibc, 112-114 with jemalloc (README, Memory and disk). jemalloc's tuning
// (MALLOC_CONF, unless set; glibc ignores it): 2 arenas instead of 4 per core, and freed pages returned
// after 1 s instead of 10. jemalloc purges only when an arena is used again (no background thread), so
// with 8 arenas and a 10 s decay the pages the queries freed stayed in whichever arenas the idle
// collections did not touch: 100k gcide after the side-by-side's load and queries, at rest, malloc'd
// memory read 52-94 MiB from run to run (PSS 166-205); with this 46-48 (PSS 158-166), the queries' and
// the load's CPU unchanged (bench/memory/pss-probe.ts, alternated; figures in the commit). A process started as
// `node bin/quarry.js` skips the line: set the variables in its environment for the same effect.
// --min-semi-space-size=4 (MiB): a floor under the young generation, which the idle full GC
// (src/engine/background/idle-gc.ts) otherwise shrinks to 1 MiB semi-spaces at the allocation rate of an
// idle process; the queries after each pause then paid for many small scavenges (and promotions) until it
// grew back over thousands of queries (100k gcide, 2000 queries from 1 client after a 14 s pause: /search
// 37 scavenges in the first 250, 3 warm). The floor stays committed at rest, so it is a trade: side by side
// with Sphinx at 100k (quiet, session 10), a floor of 16 (V8's default maximum) gave server CPU per query
// MySQL / /sql / /search 0.68 / 0.77 / 1.13x Sphinx's (0.77 / 0.94 / 1.23 with no floor) but PSS 3.02x
// (V8's 256 KiB pages 29 -> 57 MiB); 8 kept that PSS (3.06x); 4 gives 0.69 / 0.76 / 1.13x at 2.60x
// (medians of 3; target <= 3x). Not for `quarry import`: with a V8 heap or compiler flag on Node 20's
// command line (this one, --max-old-space-size, --expose-gc, --no-opt; not --stack-size) each worker
// thread takes ~40 ms more CPU to start (a bare worker 35-50 -> 67-104 ms, mechanism not pinned down),
// and the import's build thread (its critical path from the start) took ~35 ms more to load
// (3,000-row gcide TSV, 6 pairs alternated, load 19-24: thread CPU at its first mark 82-118 ms with
// the flag, 42-69 without); the import runs as the benches run it (`node bin/quarry.js`, no flag), and
// its process ends before the idle GC matters.
const argv = process.argv.slice(2);
// `quarry import --data`'s build thread started before the CLI's modules load (~30 ms of CPU): from its
// start to the import's last build it is the critical path (early-build-worker.ts)
if (argv[0] === 'import') {
  const early = await import('../dist/src/engine/background/early-build-worker.js');
  early.startImportBuildThread(argv, new URL('../dist/src/import/build-worker.js', import.meta.url));
}
const { exitSoon, main } = await import('../dist/src/server/cli.js');

const code = await main(argv);
if (code !== undefined) exitSoon(code);
