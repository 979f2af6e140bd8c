import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../../src/http/app.js';
import { BROWSER_MODULE_CSP, CONSOLE_CSP, demoCsp } from '../../../src/http/console-routes.js';
import { ROOT } from '../../helpers/server-process.js';
import { EngineDouble } from './engine-double.js';

let dir: string;
const app = (console?: { consoleDir?: string; browserDir?: string }) => createHttpApp({ engine: new EngineDouble({}), console });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-console-'));
  mkdirSync(join(dir, 'web'));
  mkdirSync(join(dir, 'browser'));
  writeFileSync(join(dir, 'web', 'index.html'), '<!DOCTYPE html><title>t</title>');
  writeFileSync(join(dir, 'web', 'demo.html'), '<!DOCTYPE html><title>demo</title>');
  writeFileSync(join(dir, 'web', 'console.js'), 'export {};');
  writeFileSync(join(dir, 'browser', 'quarry-browser.js'), 'export const openIndex = 1;');
  writeFileSync(join(dir, 'browser', 'release.wasm'), 'core');
  writeFileSync(join(dir, 'browser', 'debug.wasm'), 'other build');
  writeFileSync(join(dir, 'browser', 'release.js'), 'bindings');
  writeFileSync(join(dir, 'secret.txt'), 'outside the folder');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('console routes', () => {
  const temp = () => app({ consoleDir: join(dir, 'web'), browserDir: join(dir, 'browser') });

  it('serves index.html at / and files at /console/NAME with the console CSP', async () => {
    const root = await temp().request('/');
    expect(root.status).toBe(200);
    expect(root.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(root.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(await root.text()).toBe('<!DOCTYPE html><title>t</title>');
    const js = await temp().request('/console/console.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
  });

  it('answers HEAD like GET without a body, and 304 on a matching If-None-Match', async () => {
    const a = temp();
    const head = await a.request('/console/console.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('10');
    expect(await head.text()).toBe('');
    const again = await a.request('/console/console.js', { headers: { 'If-None-Match': head.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('rejects traversal, hidden names and nested paths without touching the file system', async () => {
    const a = temp();
    for (const path of ['/console/..%2Fsecret.txt', '/console/%2e%2e%2fsecret.txt', '/console/..%5Csecret.txt',
      '/console/secret.txt', '/browser/..%2F..%2Fsecret.txt', '/console/index.html%00.js']) {
      const res = await a.request(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toBe('not found\n');
    }
    // dot segments are resolved by the URL parser before routing, and deeper paths match no route
    for (const path of ['/console/../secret.txt', '/console/%2e%2e/secret.txt', '/console/%2e%2e', '/console/a/b.js', '/secret.txt']) {
      const res = await a.request(path);
      expect(await res.text(), path).not.toContain('outside the folder');
    }
  });

  it('gives demo.html a policy allowing WebAssembly and the exported folder origin for fetches only', async () => {
    const res = await temp().request(`/console/demo.html?index=${encodeURIComponent('https://static.example:8443/docs/')}`);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toBe(demoCsp('https://static.example:8443/docs/'));
    expect(csp).toContain("connect-src 'self' https://static.example:8443;");
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
  });

  it('serves the browser module from its own folder with a policy its workers can run under', async () => {
    const res = await temp().request('/browser/quarry-browser.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(BROWSER_MODULE_CSP);
    const wasm = await temp().request('/browser/release.wasm');
    expect(wasm.headers.get('content-type')).toBe('application/wasm');
    for (const other of ['missing.js', 'debug.wasm', 'release.js']) expect((await temp().request(`/browser/${other}`)).status, other).toBe(404);
  });

  it('404s every console path when the folders are missing', async () => {
    const a = app({ consoleDir: join(dir, 'none'), browserDir: join(dir, 'none') });
    expect((await a.request('/')).status).toBe(404);
    expect((await a.request('/browser/quarry-browser.js')).status).toBe(404);
  });
});

describe('demoCsp', () => {
  it('adds only an http(s) origin, never a path, scheme or injected directive', () => {
    expect(demoCsp(undefined)).toContain("connect-src 'self';");
    expect(demoCsp('./export/')).toContain("connect-src 'self';");
    expect(demoCsp('javascript:alert(1)')).toContain("connect-src 'self';");
    expect(demoCsp("http://a.example/; script-src 'unsafe-inline'")).toContain("connect-src 'self' http://a.example;");
    expect(demoCsp("http://a.example/; script-src 'unsafe-inline'")).not.toContain('unsafe-inline');
    expect(demoCsp('http://a.example x.example/')).toContain("connect-src 'self';");
  });
});

describe('the shipped console files', () => {
  const webDir = join(ROOT, 'web', 'console');
  const pages = readdirSync(webDir).filter((n) => n.endsWith('.html'));

  it('are found from the package root by default', async () => {
    const res = await app().request('/');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<script type="module" src="/console/console.js"></script>');
    for (const name of readdirSync(webDir)) expect((await app().request(`/console/${name}`)).status, name).toBe(200);
  });

  it('hold no inline script, inline style or event handler attribute (the CSP would block them)', () => {
    expect(pages).toEqual(expect.arrayContaining(['index.html', 'demo.html']));
    for (const name of pages) {
      const html = readFileSync(join(webDir, name), 'utf8');
      expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g), name).toBeNull();
      expect(html, name).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    }
  });

  it('never assign HTML from strings in their scripts', () => {
    for (const name of readdirSync(webDir).filter((n) => n.endsWith('.js'))) {
      const js = readFileSync(join(webDir, name), 'utf8');
      expect(js, name).not.toMatch(/\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|createContextualFragment|document\.write|\beval\(|new Function/);
    }
  });
});
