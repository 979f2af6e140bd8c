/** Tag knowledge of the HTML stripper: inline tags, html_index_attrs, html_remove_elements. */
import { SearchError } from '../util/errors.js';

/** Tags that do not separate words (`wo<b>rd</b>` is one word); any other tag becomes a space. */
export const INLINE_TAGS: readonly string[] = [
  'a', 'b', 'i', 's', 'u', 'basefont', 'big', 'em', 'font', 'img', 'label', 'small', 'span', 'strike',
  'strong', 'sub', 'sup', 'tt',
];

export interface TagRule {
  /** Lowercase tag name. */
  name: string;
  inline: boolean;
  /** html_index_attrs: lowercase names of attributes whose values are indexed. */
  attrs: string[];
  /** html_remove_elements: the element's contents are dropped too. */
  remove: boolean;
  /** index_sp: a block element, marking a paragraph boundary. */
  para: boolean;
  /** index_zones: a zone element (`zonePrefix`: the name is a prefix, `h*`). */
  zone: boolean;
  zonePrefix: boolean;
}

/** Block elements that mark paragraphs when index_sp=1. */
export const PARAGRAPH_TAGS: readonly string[] = [
  'address', 'blockquote', 'caption', 'center', 'dd', 'div', 'dl', 'dt', 'h1', 'h2', 'h3', 'h4', 'h5', 'li',
  'menu', 'ol', 'p', 'pre', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
];

export interface TagRulesOptions {
  indexAttrs?: string;
  removeElements?: string;
  /** index_sp=1: block elements mark paragraphs. */
  paragraphs?: boolean;
  /** index_zones, e.g. `h*, th, title`. */
  zones?: string;
}

function newRule(name: string): TagRule {
  return { name, inline: false, attrs: [], remove: false, para: false, zone: false, zonePrefix: false };
}

/** Letters, digits, `-`, `_`, `.`, `:`: what a tag or attribute name is made of. */
export function isTagChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)
    || c === 0x2d || c === 0x5f || c === 0x2e || c === 0x3a;
}

/** What may start an attribute name: letters, `_`, `.`, `:`. */
export function isTagStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x2e || c === 0x3a;
}

/** What may start a tag name for lookup: letters, `_`, `:` (Manticore's tag index). */
export function isTagNameStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a;
}

/** ' ', \t, \n, \r. */
export function isHtmlSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function lowerAscii(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
}

function isCSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** The tag rules of a table: sorted by name, as Manticore's lookup expects. */
export class TagRules {
  readonly rules: TagRule[] = INLINE_TAGS.map((name) => ({ ...newRule(name), inline: true }));

  constructor(opts: TagRulesOptions = {}) {
    this.parseIndexAttrs(opts.indexAttrs ?? '');
    this.parseRemoveElements(opts.removeElements ?? '');
    if (opts.paragraphs) for (const name of PARAGRAPH_TAGS) this.rule(name).para = true;
    this.parseZones(opts.zones ?? '');
    this.rules.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  }

  private rule(name: string): TagRule {
    let r = this.rules.find((x) => x.name === name);
    if (!r) {
      r = newRule(name);
      this.rules.push(r);
    }
    return r;
  }

  /** A zone prefix rule (`h*`) never merges with the exact-name rule of the same letters. */
  private prefixRule(name: string): TagRule {
    const r = newRule(name);
    this.rules.push(r);
    return r;
  }

  /** `h*, th, title`: names or name prefixes (Manticore's SetZones grammar and message). */
  private parseZones(spec: string): void {
    let p = 0;
    const at = (k: number): number => (k < spec.length ? spec.charCodeAt(k) : 0);
    const fail = (): never => {
      throw new SearchError('BAD_SETTING', `unexpected char near '${spec.slice(p)}' in index_zones`);
    };
    while (p < spec.length) {
      while (isHtmlSpace(at(p))) p++;
      if (p >= spec.length) break;
      if (!isTagStart(at(p))) fail();
      const nameAt = p;
      while (isTagChar(at(p))) p++;
      const name = spec.slice(nameAt, p);
      const prefix = at(p) === 0x2a;
      if (prefix) p++;
      while (isHtmlSpace(at(p))) p++;
      if (p < spec.length && at(p) !== 0x2c) fail();
      if (at(p) === 0x2c) p++;
      // A zone name may already have a rule (an inline tag such as `b`, a paragraph tag such as `h1`):
      // it becomes a zone too, so the tag is not shadowed by its older rule.
      const r = prefix ? this.prefixRule(name) : this.rule(name);
      r.zone = true;
      r.zonePrefix = prefix;
    }
  }

  /** `img=alt,title; a=title;` (Manticore's SetIndexedAttrs grammar and messages). */
  private parseIndexAttrs(spec: string): void {
    let p = 0;
    const at = (k: number): number => (k < spec.length ? spec.charCodeAt(k) : 0);
    const fail = (msg: string, from: number): never => {
      throw new SearchError('BAD_SETTING', `SetIndexedAttrs(): ${msg} near '${spec.slice(from)}'`);
    };
    while (p < spec.length) {
      while (p < spec.length && isCSpace(at(p))) p++;
      if (p >= spec.length) break;
      const tagAt = p;
      while (isTagChar(at(p))) p++;
      if (p === tagAt) fail('invalid character in tag name', tagAt);
      const rule = this.rule(spec.slice(tagAt, p).toLowerCase());
      while (p < spec.length && isCSpace(at(p))) p++;
      if (at(p++) !== 0x3d) fail("'=' expected", p - 1);
      while (p < spec.length) {
        while (p < spec.length && isCSpace(at(p))) p++;
        if (p >= spec.length) break;
        const attrAt = p;
        while (isTagChar(at(p))) p++;
        if (p === attrAt) fail('invalid character in attribute name', attrAt);
        const attr = spec.slice(attrAt, p).toLowerCase();
        if (!rule.attrs.includes(attr)) rule.attrs.push(attr);
        while (p < spec.length && isCSpace(at(p))) p++;
        if (p >= spec.length) break;
        if (at(p) === 0x2c) { p++; continue; }
        if (at(p) === 0x3b) { p++; break; }
        fail("',' or ';' or end of line expected", p);
      }
    }
  }

  /** `style, script`: any run of name characters names an element. */
  private parseRemoveElements(spec: string): void {
    let p = 0;
    while (p < spec.length) {
      while (p < spec.length && !isTagChar(spec.charCodeAt(p))) p++;
      if (p >= spec.length) break;
      const at = p;
      while (p < spec.length && isTagChar(spec.charCodeAt(p))) p++;
      this.rule(spec.slice(at, p).toLowerCase()).remove = true;
    }
  }

  /**
   * Finds the rule for the tag whose name (after an optional `/`) starts at `pos`: a known name
   * matched case-insensitively and not followed by another name character. Returns the rule and
   * the position after the name, or null (the caller skips the name as an attribute-like run).
   */
  find(src: string, pos: number, end: number): { rule: TagRule; after: number } | null {
    const nameAt = pos < end && src.charCodeAt(pos) === 0x2f ? pos + 1 : pos;
    for (const rule of this.rules) {
      const len = rule.name.length;
      if (nameAt + len > end) continue;
      let same = true;
      for (let k = 0; k < len && same; k++) {
        const c = src.charCodeAt(nameAt + k);
        same = (c >= 0x41 && c <= 0x5a ? c | 0x20 : c) === (rule.zone ? lowerAscii(rule.name.charCodeAt(k)) : rule.name.charCodeAt(k));
      }
      if (!same) continue;
      let after = nameAt + len;
      if (!isTagChar(after < end ? src.charCodeAt(after) : 0)) return { rule, after };
      if (rule.zonePrefix) {
        while (after < end && isTagChar(src.charCodeAt(after))) after++;
        return { rule, after };
      }
    }
    return null;
  }
}
