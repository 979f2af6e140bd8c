import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_TYPES, loadStaticFolder, staticNotFound, staticResponse } from '../../../src/http/static-files.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-static-'));
  const site = join(dir, 'site');
  mkdirSync(join(site, 'sub'), { recursive: true });
  for (const name of ['index.html', 'app.js', 'style.css', 'icon.svg', 'core.wasm', 'data.json', 'READ.ME.txt']) {
    writeFileSync(join(site, name), `content of ${name}`);
  }
  writeFileSync(join(site, '.hidden.js'), 'hidden');
  writeFileSync(join(site, 'tool.exe'), 'binary');
  writeFileSync(join(site, 'with space.js'), 'odd name');
  writeFileSync(join(site, 'sub', 'inner.js'), 'nested');
  mkdirSync(join(site, 'folder.js'));
  writeFileSync(join(dir, 'secret.txt'), 'outside');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadStaticFolder', () => {
  it('lists plain files with a known extension by name, with their content type', () => {
    const files = loadStaticFolder(join(dir, 'site'));
    expect([...files.keys()].sort()).toEqual(['READ.ME.txt', 'app.js', 'core.wasm', 'data.json', 'icon.svg', 'index.html', 'style.css']);
    expect(files.get('index.html')!.contentType).toBe('text/html; charset=utf-8');
    expect(files.get('app.js')!.contentType).toBe('text/javascript; charset=utf-8');
    expect(files.get('style.css')!.contentType).toBe('text/css; charset=utf-8');
    expect(files.get('icon.svg')!.contentType).toBe('image/svg+xml');
    expect(files.get('core.wasm')!.contentType).toBe('application/wasm');
    expect(new TextDecoder().decode(files.get('app.js')!.body)).toBe('content of app.js');
  });

  it('skips hidden files, unknown extensions, odd names, folders and subfolders', () => {
    const names = [...loadStaticFolder(join(dir, 'site')).keys()];
    for (const skipped of ['.hidden.js', 'tool.exe', 'with space.js', 'sub', 'inner.js', 'folder.js']) expect(names).not.toContain(skipped);
  });

  it('is empty for a missing folder', () => {
    expect(loadStaticFolder(join(dir, 'nope')).size).toBe(0);
  });

  it('gives equal content equal ETags and different content different ones', () => {
    const files = loadStaticFolder(join(dir, 'site'));
    expect(files.get('app.js')!.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(files.get('app.js')!.etag).not.toBe(files.get('style.css')!.etag);
    expect(loadStaticFolder(join(dir, 'site')).get('app.js')!.etag).toBe(files.get('app.js')!.etag);
  });
});

describe('staticResponse', () => {
  const file = () => loadStaticFolder(join(dir, 'site')).get('app.js')!;

  it('sends the bytes with type, length, CSP, nosniff and a revalidating cache policy', async () => {
    const res = staticResponse(file(), undefined, "default-src 'none'");
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(CONTENT_TYPES['.js']);
    expect(res.headers.get('content-length')).toBe(String('content of app.js'.length));
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('etag')).toBe(file().etag);
    expect(await res.text()).toBe('content of app.js');
  });

  it('answers 304 without a body when If-None-Match names the ETag', async () => {
    const f = file();
    const res = staticResponse(f, `"other", ${f.etag}`, 'x');
    expect(res.status).toBe(304);
    expect(await res.text()).toBe('');
    expect(staticResponse(f, '"other"', 'x').status).toBe(200);
  });

  it('404s as plain text with the same protective headers', async () => {
    const res = staticNotFound("default-src 'none'");
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
