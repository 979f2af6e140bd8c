/**
 * Where the SQL text of `/sql`, `/cli` and `/cli_json` comes from, as Manticore reads it: URL
 * parameters, a url-encoded body (`query=...`, `mode=raw&query=...`), or the raw body itself.
 */

/** Body prefixes that make a `/sql` body url-encoded parameters rather than SQL text. */
const FORM_BODY_PREFIXES = ['query=', 'mode=raw&query=', 'raw_response=true&query='];

/**
 * Percent-decodes `text` byte-wise (invalid escapes stay as written); `+` becomes a space when
 * `plusIsSpace` (form encoding) and stays `+` otherwise.
 */
export function percentDecode(text: string, plusIsSpace: boolean): string {
  if (!/[%+]/.test(text)) return text;
  const bytes: number[] = [];
  const src = Buffer.from(text, 'utf8');
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === 0x25 && i + 2 < src.length) {
      const hex = String.fromCharCode(src[i + 1]!, src[i + 2]!);
      if (/^[0-9a-fA-F]{2}$/.test(hex)) {
        bytes.push(Number.parseInt(hex, 16));
        i += 2;
        continue;
      }
    }
    bytes.push(c === 0x2b && plusIsSpace ? 0x20 : c);
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * `a=1&b=2` as a map with lowercased names and decoded values. The first occurrence of a name wins,
 * as in Manticore's option hash; a trailing part without `=` is ignored.
 */
export function parseParams(text: string, into: Map<string, string> = new Map()): Map<string, string> {
  if (text === '') return into;
  for (const part of text.split('&')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = percentDecode(part.slice(0, eq), true).toLowerCase();
    if (!into.has(name)) into.set(name, percentDecode(part.slice(eq + 1), true));
  }
  return into;
}

export interface SqlRequest {
  /** The SQL text; '' when none was sent. */
  query: string;
  /** `mode=raw` or `raw_response=true`: any statement, reply as an array of result sets. */
  raw: boolean;
}

/** The query and mode of a `/sql` request from its URL query string (without `?`) and its body. */
export function readSqlRequest(urlQuery: string, body: string): SqlRequest {
  // what clients send on every request (`/sql?mode=raw` or `/sql` with the SQL as the body) is read
  // without the parameter Map, splits and decodes: the same answer as below, per INSERT over HTTP
  if ((urlQuery === 'mode=raw' || urlQuery === '') && !FORM_BODY_PREFIXES.some((p) => body.startsWith(p))) {
    return { query: body, raw: urlQuery !== '' };
  }
  const params = parseParams(urlQuery);
  if (FORM_BODY_PREFIXES.some((p) => body.startsWith(p))) parseParams(body, params);
  else if (!params.has('query')) params.set('query', body);
  const mode = params.get('mode');
  const raw = mode !== undefined ? mode === 'raw' : params.get('raw_response') === 'true';
  return { query: params.get('query') ?? '', raw };
}

/**
 * The SQL text of `/cli` and `/cli_json`: the body exactly as sent, or for a GET everything after
 * `?`, percent-decoded with `+` kept (the manual: "the + sign is not changed to a space").
 */
export function readCliQuery(urlQuery: string, body: string): string {
  return body !== '' ? body : percentDecode(urlQuery, false);
}
