/**
 * Loads the compiled WASM core once per process: one WebAssembly.Module, instantiable many times
 * (one instance per shard or worker). The debug build (asserts on) is used under vitest or when
 * QUARRY_WASM=debug, the release build otherwise. Paths resolve from the package root, so this
 * works from src/ (vitest) and from dist/src/ (compiled).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type WasmBuild = 'debug' | 'release';

/** The build this process uses by default. */
export function defaultBuild(): WasmBuild {
  if (process.env.QUARRY_WASM === 'debug' || process.env.QUARRY_WASM === 'release') return process.env.QUARRY_WASM;
  return process.env.VITEST ? 'debug' : 'release';
}

/** Walks up from this file to the directory holding package.json and build/. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'build'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('quarry: cannot find the package root holding build/*.wasm');
}

const modules = new Map<WasmBuild, WebAssembly.Module>();

/** The compiled module for a build (compiled on first use, synchronously). */
export function coreModule(build: WasmBuild = defaultBuild()): WebAssembly.Module {
  let m = modules.get(build);
  if (!m) {
    const path = join(packageRoot(), 'build', `${build}.wasm`);
    m = new WebAssembly.Module(readFileSync(path));
    modules.set(build, m);
  }
  return m;
}
