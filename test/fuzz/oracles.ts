/**
 * What every answer must be: a well-formed MySQL response or HTTP response in Manticore's shape,
 * never an internal message. A returned string names the violation; undefined means the answer is fine.
 */

/** Texts that only an internal fault would put in an answer (the generators never produce them). */
const LEAKS = /TypeError|ReferenceError|RangeError|Maximum call stack|is not a function|Cannot read prop|(?<!\$)\bundefined\b(?! global variable)|\[object Object\]|node:internal|\/work\/|\/home\/|\/tmp\/|\.ts:\d+|\.js:\d+|\bat \w+ \(/;

export function leak(text: string): string | undefined {
  const m = LEAKS.exec(text);
  return m ? `internal text in answer: ${JSON.stringify(text.slice(Math.max(0, m.index - 60), m.index + 80))}` : undefined;
}

export interface MysqlReply {
  /** Payloads of the packets of one response. */
  packets: Buffer[];
  /** The server closed the connection instead of answering. */
  closed: boolean;
}

/** An OK, an ERR with a SQLSTATE marker, or a result set that ends in EOF/OK or ERR. */
export function checkMysqlReply(r: MysqlReply): string | undefined {
  const first = r.packets[0];
  if (!first) return r.closed ? undefined : 'no answer';
  if (first[0] === 0xff) {
    if (first.length < 9 || first[3] !== 0x23) return `ERR without SQLSTATE: ${first.toString('hex').slice(0, 40)}`;
    const message = first.subarray(9).toString('utf8');
    if (!message) return 'ERR without a message';
    return leak(message);
  }
  if (first[0] === 0x00) return undefined;
  const last = r.packets[r.packets.length - 1]!;
  if (!(last[0] === 0xfe && last.length < 9) && last[0] !== 0xff) return 'result set without its final EOF';
  if (last[0] === 0xff) return leak(last.subarray(9).toString('utf8'));
  return undefined;
}

/**
 * A status line, and for JSON answers a body that parses and leaks nothing. `cli`: the request went to
 * /cli, whose result sets are searchd's text tables sent under its JSON content type (as searchd's own
 * recordings show), its other answers JSON: a body that is not an object or array is not parsed.
 */
export function checkHttpReply(raw: string, cli = false): string | undefined {
  if (!raw) return undefined; // the server may close a connection it cannot parse
  const m = /^HTTP\/1\.[01] (\d{3}) /.exec(raw);
  if (!m) return `not an HTTP response: ${JSON.stringify(raw.slice(0, 60))}`;
  const status = Number(m[1]);
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split);
  let body = raw.slice(split + 4);
  // bytes past a Content-Length body are the answer to the next request the input held (its stray bytes
  // after a short body, answered 400 since 1fae77e): each answer is checked on its own
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  if (length) {
    const bytes = Buffer.from(body, 'utf8');
    const next = bytes.subarray(Number(length[1])).toString('utf8');
    body = bytes.subarray(0, Number(length[1])).toString('utf8');
    const nextProblem = next ? checkHttpReply(next, cli) : undefined;
    if (nextProblem) return nextProblem;
  }
  // Manticore answers SQL errors over /sql and /cli_json with 500 too: the status alone says nothing,
  // an unexpected fault shows in the body and in the server's log (checked by the runner)
  if (status < 100) return `bad status ${status}`;
  const textTable = cli && !/^\s*[[{]/.test(body);
  if (/content-type: application\/json/i.test(head) && !/transfer-encoding: chunked/i.test(head) && body && !textTable) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return `JSON answer does not parse: ${JSON.stringify(body.slice(0, 100))}`;
    }
    if (status >= 400) {
      const shape = errorShape(parsed);
      if (shape) return `${status} answer not in Manticore's error shape (${shape}): ${JSON.stringify(body.slice(0, 120))}`;
    }
  }
  return leak(body);
}

/**
 * Manticore's error bodies: {"error": "text"} (SQL endpoints), {"error": {"type", "reason", ...}, "status"}
 * (the JSON API), and the raw mode's [{"error": "text", ...}]. What is wrong with `body`, or undefined.
 */
export function errorShape(body: unknown): string | undefined {
  const e = Array.isArray(body) ? (body[0] as { error?: unknown } | undefined)?.error : (body as { error?: unknown } | null)?.error;
  if (typeof e === 'string') return e ? undefined : 'empty error';
  if (e && typeof e === 'object') {
    const { type, reason } = e as { type?: unknown; reason?: unknown };
    return typeof type === 'string' && (typeof reason === 'string' || reason === undefined) ? undefined : 'error object without type/reason';
  }
  return 'no error member';
}
