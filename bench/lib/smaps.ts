// bench/lib/smaps.ts: where a process's resident memory goes, read from /proc/PID/smaps_rollup and
// /proc/PID/smaps (PSS, in bytes), by kind of mapping: the WASM linear memories, lmdb's data.mdb,
// glibc's [heap], other anonymous memory (V8's heap pages, thread stacks, lmdb's and Node's mallocs
// above the mmap threshold) and file-backed code (node, shared libraries).
import { readFileSync, readdirSync } from 'node:fs';

/** kB fields of a process's smaps_rollup, in bytes. */
export function rollup(pid: number | 'self'): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').matchAll(/^(\w+):\s+(\d+) kB/gm)) out[m[1]] = Number(m[2]) * 1024;
  return out;
}

interface Mapping { start: bigint; end: bigint; perms: string; name: string; pss: number }

function mappings(pid: number | 'self'): Mapping[] {
  const maps: Mapping[] = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m) maps.push({ start: BigInt(`0x${m[1]}`), end: BigInt(`0x${m[2]}`), perms: m[3], name: m[4], pss: 0 });
    else if (line.startsWith('Pss:') && maps.length) maps[maps.length - 1].pss = Number(/(\d+)/.exec(line)![1]) * 1024;
  }
  return maps;
}

/**
 * PSS by kind of mapping, and the number of threads. `wasmMapped`: the wasm memories' committed size (what
 * they grew to, resident or not: a wasm memory never shrinks), beside `wasm`, their resident part.
 */
export function breakdown(pid: number | 'self') {
  const maps = mappings(pid);
  const out = { wasm: 0, wasmMapped: 0, wasmMemories: 0, lmdb: 0, mallocHeap: 0, anon256k: 0, anonOther: 0, files: 0, stacks: 0, threads: 0 };
  // V8 maps a wasm32 memory as its committed pages (rw-p) directly followed by a reservation of several
  // GiB (---p) it grows into.
  const wasm = new Set<number>();
  for (let i = 0; i + 1 < maps.length; i++) {
    const [a, b] = [maps[i], maps[i + 1]];
    if (a.perms === 'rw-p' && b.perms === '---p' && b.start === a.end && b.end - b.start >= 4n << 30n) wasm.add(i);
  }
  maps.forEach((m, i) => {
    if (wasm.has(i)) { out.wasm += m.pss; out.wasmMapped += Number(m.end - m.start); out.wasmMemories++; }
    else if (m.name.endsWith('data.mdb')) out.lmdb += m.pss;
    else if (m.name === '[heap]') out.mallocHeap += m.pss;
    else if (m.name.startsWith('[stack')) out.stacks += m.pss;
    else if (m.name.startsWith('/')) out.files += m.pss;
    else if (m.end - m.start === 256n * 1024n) out.anon256k += m.pss;
    else out.anonOther += m.pss;
  });
  out.threads = readdirSync(`/proc/${pid}/task`).length;
  return out;
}
