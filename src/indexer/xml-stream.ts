/**
 * A small incremental XML tokenizer for xmlpipe2 streams: elements with attributes, text (entities
 * decoded), CDATA; comments, processing instructions and DOCTYPE are skipped. Not validating: the
 * xmlpipe2 reader above checks the structure it needs. Input arrives in pieces; a construct cut by a
 * piece boundary waits for the next one.
 */

export type XmlEvent =
  | { kind: 'open'; name: string; attrs: Record<string, string>; selfClosing: boolean; line: number }
  | { kind: 'close'; name: string; line: number }
  | { kind: 'text'; text: string };

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export class XmlError extends Error {
  constructor(message: string, readonly line: number) { super(`line ${line}: ${message}`); }
}

export function decodeEntities(s: string, line = 0): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|[A-Za-z]+);?/g, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    const v = ENTITIES[e];
    if (v === undefined) throw new XmlError(`unknown entity '${m}'`, line);
    return v;
  });
}

const ATTR = /([A-Za-z_:][-\w:.]*)\s*=\s*("([^"]*)"|'([^']*)')/g;

export class XmlTokenizer {
  #buf = '';
  #line = 1;

  /** Tokenizes what `text` completes; the rest waits for more input. */
  feed(text: string, final = false): XmlEvent[] {
    this.#buf += text;
    const out: XmlEvent[] = [];
    let pos = 0;
    const buf = this.#buf;
    while (pos < buf.length) {
      const lt = buf.indexOf('<', pos);
      if (lt < 0) {
        if (!final) break; // text may go on in the next piece
        this.#text(out, buf.slice(pos));
        pos = buf.length;
        break;
      }
      if (lt > pos) this.#text(out, buf.slice(pos, lt));
      pos = lt;
      const end = this.#construct(out, buf, lt);
      if (end < 0) break; // incomplete: wait
      pos = end;
    }
    this.#buf = buf.slice(pos);
    if (final && this.#buf.trim() !== '') throw new XmlError('unexpected end of the stream inside a tag', this.#line);
    return out;
  }

  #text(out: XmlEvent[], raw: string): void {
    const line = this.#line;
    this.#count(raw);
    out.push({ kind: 'text', text: decodeEntities(raw, line) });
  }

  #count(s: string): void {
    for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) this.#line++;
  }

  /** Reads the construct at `lt`; returns the position after it, or -1 when it is not complete yet. */
  #construct(out: XmlEvent[], buf: string, lt: number): number {
    const skipTo = (close: string, from: number): number => {
      const i = buf.indexOf(close, from);
      if (i < 0) return -1;
      this.#count(buf.slice(lt, i + close.length));
      return i + close.length;
    };
    if (buf.startsWith('<!--', lt)) return skipTo('-->', lt + 4);
    if (buf.startsWith('<?', lt)) return skipTo('?>', lt + 2);
    if (buf.startsWith('<![CDATA[', lt)) {
      const i = buf.indexOf(']]>', lt + 9);
      if (i < 0) return -1;
      const text = buf.slice(lt + 9, i);
      this.#count(text);
      out.push({ kind: 'text', text });
      return i + 3;
    }
    if (buf.length - lt < 9 && '<![CDATA['.startsWith(buf.slice(lt))) return -1;
    if (buf.startsWith('<!', lt)) return skipTo('>', lt + 2);
    const gt = buf.indexOf('>', lt);
    if (gt < 0) return -1;
    const body = buf.slice(lt + 1, gt);
    const line = this.#line;
    this.#count(body);
    if (body.startsWith('/')) {
      out.push({ kind: 'close', name: body.slice(1).trim(), line });
      return gt + 1;
    }
    const selfClosing = body.endsWith('/');
    const inner = selfClosing ? body.slice(0, -1) : body;
    const m = /^([A-Za-z_:][-\w:.]*)/.exec(inner);
    if (!m) throw new XmlError(`malformed tag '<${body.slice(0, 40)}>'`, line);
    const attrs: Record<string, string> = {};
    for (const a of inner.slice(m[1]!.length).matchAll(ATTR)) attrs[a[1]!] = decodeEntities(a[3] ?? a[4] ?? '', line);
    out.push({ kind: 'open', name: m[1]!, attrs, selfClosing, line });
    if (selfClosing) out.push({ kind: 'close', name: m[1]!, line });
    return gt + 1;
  }
}
