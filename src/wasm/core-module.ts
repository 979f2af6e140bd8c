/**
 * The compiled WASM core, once per process: one WebAssembly.Module, instantiable many times (one
 * instance per shard or worker). Where the bytes come from is the host's business: Node reads
 * build/*.wasm (src/engine/node-host.ts), a page fetches the export's copy (src/browser/). The
 * debug build (asserts on) is used under vitest or when QUARRY_WASM=debug, the release build otherwise.
 */

import { envVar } from '../util/env.js';

export type WasmBuild = 'debug' | 'release';

/** Gives the bytes (or an already compiled module) of a build. */
export type CoreSource = (build: WasmBuild) => BufferSource | WebAssembly.Module;

/** The build this process uses by default (always release where there is no process.env). */
export function defaultBuild(): WasmBuild {
  const chosen = envVar('QUARRY_WASM');
  if (chosen === 'debug' || chosen === 'release') return chosen;
  return envVar('VITEST') ? 'debug' : 'release';
}

let source: CoreSource | null = null;
const modules = new Map<WasmBuild, WebAssembly.Module>();

/** Installs where the core's bytes come from; compiled modules of an earlier source are dropped. */
export function setCoreSource(src: CoreSource): void {
  source = src;
  modules.clear();
}

/** The compiled module for a build (compiled on first use, synchronously). */
export function coreModule(build: WasmBuild = defaultBuild()): WebAssembly.Module {
  let m = modules.get(build);
  if (!m) {
    if (!source) throw new Error('quarry: no WASM core installed (the host calls setCoreSource first)');
    const got = source(build);
    m = got instanceof WebAssembly.Module ? got : new WebAssembly.Module(got);
    modules.set(build, m);
  }
  return m;
}
