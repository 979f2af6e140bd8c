/**
 * Loads the compiled WASM core once per process: one WebAssembly.Module, instantiable many times
 * (one instance per shard or worker). The debug build (asserts on) is used under vitest or when
 * QUARRY_WASM=debug, the release build otherwise. Paths resolve from the package root, so this
 * works from src/ (vitest) and from dist/src/ (compiled).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';

export type WasmBuild = 'debug' | 'release';

/** The build this process uses by default. */
export function defaultBuild(): WasmBuild {
  if (process.env.QUARRY_WASM === 'debug' || process.env.QUARRY_WASM === 'release') return process.env.QUARRY_WASM;
  return process.env.VITEST ? 'debug' : 'release';
}

const modules = new Map<WasmBuild, WebAssembly.Module>();

/** The compiled module for a build (compiled on first use, synchronously). */
export function coreModule(build: WasmBuild = defaultBuild()): WebAssembly.Module {
  let m = modules.get(build);
  if (!m) {
    const path = join(packageRoot(import.meta.url, 'build'), 'build', `${build}.wasm`);
    m = new WebAssembly.Module(readFileSync(path));
    modules.set(build, m);
  }
  return m;
}
