/**
 * Static files for the web console: a flat folder read once into memory, served by exact name only.
 * A request can only name a file that was listed at load time, so `..`, encoded slashes or absolute
 * paths never reach the file system (there is nothing to traverse).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';

/** Content types by extension; a file with any other extension is not served. */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** A servable name: one path segment of safe characters, not starting with a dot (no hidden files). */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export interface StaticFile {
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
  /** Strong validator from the content, so a reload after an upgrade never keeps a stale script. */
  etag: string;
}

/** The servable files of `dir` by name (its subfolders are not served); empty when `dir` is missing. */
export function loadStaticFolder(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return files;
  }
  for (const name of names) {
    const contentType = CONTENT_TYPES[extname(name).toLowerCase()];
    if (!contentType || !SAFE_NAME.test(name)) continue;
    const path = join(dir, name);
    if (!statSync(path).isFile()) continue;
    const body = new Uint8Array(readFileSync(path)); // an own ArrayBuffer: a valid Response body
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    files.set(name, { body, contentType, etag });
  }
  return files;
}

/** Headers every console response carries, whatever its type. */
const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
  // revalidate every time (cheap: 304 by ETag); the files are a few kB and change with each release
  'Cache-Control': 'no-cache',
};

/**
 * The response for `file`: 304 when the client's If-None-Match already names its ETag, else the bytes.
 * `csp` is the Content-Security-Policy to send (pages need it; scripts and styles carry it harmlessly).
 */
export function staticResponse(file: StaticFile, ifNoneMatch: string | undefined, csp: string): Response {
  const headers = new Headers({ ...COMMON_HEADERS, 'Content-Security-Policy': csp, ETag: file.etag });
  if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((t) => t.trim() === file.etag)) {
    return new Response(null, { status: 304, headers });
  }
  headers.set('Content-Type', file.contentType);
  headers.set('Content-Length', String(file.body.byteLength));
  return new Response(file.body, { status: 200, headers });
}

/** A plain-text 404 for a console path that names no file (never the file system's own message). */
export function staticNotFound(csp: string): Response {
  const headers = new Headers({ ...COMMON_HEADERS, 'Content-Security-Policy': csp, 'Content-Type': CONTENT_TYPES['.txt']! });
  return new Response('not found\n', { status: 404, headers });
}
