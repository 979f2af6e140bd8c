/**
 * The compiled WASM core, once per process: one WebAssembly.Module, instantiable many times (one
 * instance per shard or worker). Where the bytes come from is the host's business: Node reads
 * build/*.wasm (src/engine/node-host.ts), a page fetches the export's copy (src/browser/). The
 * debug build (asserts on) is used under vitest or when QUARRY_WASM=debug, the release build otherwise.
 */

import { envVar } from '../util/env.js';
import { sharedVariant } from './shared-memory.js';

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
const modules = new Map<string, CoreModule>();

/** A compiled core and whether its imported memory is declared shared (see shared-memory.ts). */
export interface CoreModule { module: WebAssembly.Module; shared: boolean }

/** Shared memory works here: Node, or a cross-origin isolated page. */
export function sharedMemoryAvailable(): boolean {
  return typeof SharedArrayBuffer !== 'undefined' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false;
}

/** Installs where the core's bytes come from; compiled modules of an earlier source are dropped. */
export function setCoreSource(src: CoreSource): void {
  source = src;
  modules.clear();
}

/**
 * The compiled module for a build (compiled on first use, synchronously), its memory shared when
 * `shared` is asked and the source gives bytes (a source giving a compiled module gets it as built:
 * not shared).
 */
export function coreModuleFor(build: WasmBuild, shared: boolean): CoreModule {
  const key = `${build}:${shared}`;
  let m = modules.get(key);
  if (!m) {
    if (!source) throw new Error('quarry: no WASM core installed (the host calls setCoreSource first)');
    const got = source(build);
    if (got instanceof WebAssembly.Module) {
      m = { module: got, shared: false };
    } else {
      const bytes = got instanceof Uint8Array ? got : ArrayBuffer.isView(got) ? new Uint8Array(got.buffer, got.byteOffset, got.byteLength) : new Uint8Array(got);
      const variant = shared ? sharedVariant(bytes) : null;
      m = { module: new WebAssembly.Module((variant ?? bytes) as Uint8Array<ArrayBuffer>), shared: variant !== null };
    }
    modules.set(key, m);
  }
  return m;
}

/** The module a Core of this build instantiates here (shared memory where available). */
export function coreModule(build: WasmBuild = defaultBuild()): WebAssembly.Module {
  return coreModuleFor(build, sharedMemoryAvailable()).module;
}
