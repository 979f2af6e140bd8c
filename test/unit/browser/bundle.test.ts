// The page's module graph: only folders that run in a page (no store, protocols, SQL, engine or
// Node built-ins), one dependency (lossless-json, for the JSON highlight object's numbers).
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const PAGE_FOLDERS = ['browser', 'highlight', 'index', 'query', 'text', 'wasm', 'util', 'schema'];

describe('browser bundle', () => {
  it('imports only the folders that run in a page', async () => {
    const res = await build({
      entryPoints: [`${ROOT}src/browser/quarry-browser.ts`], bundle: true, format: 'esm', platform: 'browser',
      write: false, metafile: true, logLevel: 'silent', absWorkingDir: ROOT,
    });
    const inputs = Object.keys(res.metafile.inputs);
    const src = inputs.filter((p) => p.startsWith('src/'));
    const folders = new Set(src.map((p) => p.split('/')[1]));
    expect([...folders].filter((f) => !PAGE_FOLDERS.includes(f))).toEqual([]);
    expect(src).toContain('src/highlight/snippet-builder.ts');
    expect(src).toContain('src/query/parse-query.ts');
    expect(src).toContain('src/wasm/plan-encoder.ts');
    expect(src).not.toContain('src/engine/node-host.ts');
    const packages = new Set(inputs.filter((p) => p.includes('node_modules/')).map((p) => p.split('node_modules/')[1].split('/')[0]));
    expect([...packages]).toEqual(['lossless-json']);
    expect(inputs.filter((p) => p.startsWith('node:'))).toEqual([]);
  });
});
