// @ts-check
/**
 * DOM helpers shared by the console and the in-page demo. Everything from data becomes text nodes:
 * nothing here parses HTML, so a document holding `<script>` renders as those characters.
 */

/**
 * Creates an element with attributes (textContent via `text`) and children (strings become text nodes).
 * @param {string} tag
 * @param {Record<string, string | boolean | undefined>} [attrs]
 * @param {(Node | string | null | undefined)[]} [children]
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (name === 'text') node.textContent = String(value);
    else node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

/**
 * Unguessable highlight markers for one page load. The server wraps matches in them; the page turns
 * them into <mark> elements. A document cannot forge a mark it does not know the nonce of, and even
 * one that did would only get a <mark>, never markup of its own.
 */
export function highlightTags() {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  const nonce = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return { pre: `{{hl-${nonce}}}`, post: `{{/hl-${nonce}}}` };
}

/**
 * A fragment of text nodes and <mark> elements from highlighted text: what lies between `pre` and
 * `post` is marked. A `pre` without its `post` marks the rest (a snippet may be cut mid-match).
 * @param {string} text
 * @param {{ pre: string, post: string }} tags
 * @returns {DocumentFragment}
 */
export function markedText(text, tags) {
  const out = document.createDocumentFragment();
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf(tags.pre, at);
    if (open < 0) break;
    if (open > at) out.append(text.slice(at, open));
    const start = open + tags.pre.length;
    const close = text.indexOf(tags.post, start);
    const end = close < 0 ? text.length : close;
    if (end > start) out.append(el('mark', { text: text.slice(start, end) }));
    at = close < 0 ? text.length : close + tags.post.length;
  }
  if (at < text.length) out.append(text.slice(at));
  return out;
}

/**
 * Parses a server reply keeping every number as the server's own text: ids above 2^53 stay exact and
 * floats print as the server wrote them (`1.500000`), as the mysql client would show them.
 * @param {string} text
 * @returns {any}
 */
export function parseServerJson(text) {
  // Chromium 114+, Firefox 135+ pass the source text to revivers; older browsers fall back to String().
  /** @type {(key: string, value: unknown, context?: { source?: string }) => unknown} */
  const keepNumberText = (_key, value, context) =>
    typeof value === 'number' ? (typeof context?.source === 'string' ? context.source : String(value)) : value;
  return JSON.parse(text, /** @type {any} */ (keepNumberText));
}

/**
 * A cell's display text: NULL for null, JSON for objects (never expected from the SQL endpoints).
 * @param {unknown} value
 */
export function cellText(value) {
  if (value === null || value === undefined) return 'NULL';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * A <table> of rows: `columns` are names, each row an object by column name.
 * @param {string[]} columns
 * @param {Record<string, unknown>[]} rows
 * @param {string[]} [types] a type per column, shown as the header's tooltip
 */
export function resultTable(columns, rows, types = []) {
  const head = el('tr', {}, columns.map((c, i) => el('th', { text: c, title: types[i] })));
  const body = rows.map((row) => el('tr', {}, columns.map((c) => {
    const v = row[c];
    return el('td', { text: cellText(v), class: v === null ? 'null' : undefined });
  })));
  return el('div', { class: 'table-wrap' }, [el('table', {}, [el('thead', {}, [head]), el('tbody', {}, body)])]);
}

/**
 * An error box with a heading and the message as text.
 * @param {string} title
 * @param {string} message
 */
export function errorBox(title, message) {
  return el('div', { class: 'error', role: 'alert' }, [el('strong', { text: title }), ' ', el('span', { text: message })]);
}
