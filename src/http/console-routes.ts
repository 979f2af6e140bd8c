/**
 * The web console: `/` and `/console/*` serve the static files of web/console/ (plain HTML, CSS and
 * ES modules that talk to the ordinary HTTP API), `/browser/*` the browser module and its WASM core
 * from build/ for the in-page demo. Every response carries a strict Content-Security-Policy.
 */
import type { Hono } from 'hono';
import { join } from 'node:path';
import { packageRoot } from '../engine/node-host.js';
import type { HttpEnv } from './http-env.js';
import { loadStaticFolder, staticNotFound, staticResponse, type StaticFile } from './static-files.js';

/**
 * The console's policy: scripts and styles only from files of this server (no inline code, no eval),
 * requests only to this server, no framing, forms only to this origin.
 */
export const CONSOLE_CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'", "connect-src 'self'",
  "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ');

/**
 * The demo page's policy: the console's, plus compiling WebAssembly ('wasm-unsafe-eval', which allows
 * no JS eval) and fetching the exported folder named by `?index=` (its origin only, and only data:
 * scripts still come from this server alone, so a crafted link cannot run foreign code here).
 */
export function demoCsp(index: string | undefined): string {
  const connect = ["'self'"];
  const origin = httpOrigin(index);
  if (origin) connect.push(origin);
  return [
    "default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", "worker-src 'self'", "style-src 'self'",
    "img-src 'self'", `connect-src ${connect.join(' ')}`, "base-uri 'none'", "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The browser module's own files: a worker started from them gets this policy (workers do not inherit
 * the page's), so it may compile the core and fetch an exported folder from any http(s) origin.
 */
export const BROWSER_MODULE_CSP =
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self' http: https:; frame-ancestors 'none'";

/** The origin of an absolute http(s) URL (scheme, host, port: no characters a policy treats specially). */
function httpOrigin(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined; // relative URLs are this server's: 'self' covers them
  }
}

export interface ConsoleRouteOptions {
  /** The console's files; default web/console/ in the package. */
  consoleDir?: string;
  /** Where the browser module and its core are built; default build/ in the package. */
  browserDir?: string;
}

/** The files of the browser build a page may load: the module and the core it fetches beside itself. */
export const BROWSER_FILES: readonly string[] = ['quarry-browser.js', 'release.wasm'];

function defaultDir(...parts: string[]): string | undefined {
  try {
    return join(packageRoot(), ...parts);
  } catch {
    return undefined; // no package root found: the console answers 404s
  }
}

/** Registers `/`, `/console/:name` and `/browser/:name` (GET; HEAD is answered from GET by Hono). */
export function registerConsoleRoutes(app: Hono<HttpEnv>, opts: ConsoleRouteOptions = {}): void {
  const consoleDir = opts.consoleDir ?? defaultDir('web', 'console');
  const browserDir = opts.browserDir ?? defaultDir('build');
  const consoleFiles = consoleDir ? loadStaticFolder(consoleDir) : new Map<string, StaticFile>();
  const browserFiles = new Map([...(browserDir ? loadStaticFolder(browserDir) : [])].filter(([name]) => BROWSER_FILES.includes(name)));
  const serve = (files: Map<string, StaticFile>, name: string, ifNoneMatch: string | undefined, csp: string) => {
    const file = files.get(name);
    return file ? staticResponse(file, ifNoneMatch, csp) : staticNotFound(csp);
  };
  app.get('/', (c) => serve(consoleFiles, 'index.html', c.req.header('if-none-match'), CONSOLE_CSP));
  app.get('/console/:name', (c) => {
    const name = c.req.param('name');
    const csp = name === 'demo.html' ? demoCsp(c.req.query('index')) : CONSOLE_CSP;
    return serve(consoleFiles, name, c.req.header('if-none-match'), csp);
  });
  app.get('/browser/:name', (c) => serve(browserFiles, c.req.param('name'), c.req.header('if-none-match'), BROWSER_MODULE_CSP));
}
