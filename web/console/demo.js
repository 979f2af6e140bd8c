// @ts-check
/**
 * The in-page demo: opens an exported table with the browser module (served by this server at
 * /browser/quarry-browser.js, the same core as the server's) and runs each query in the page and on
 * the server (`POST /search`), side by side, saying whether ids and weights agree.
 */
import { cellText, el, errorBox, highlightTags, markedText, parseServerJson } from './render.js';

/** Where this server serves the browser build of the core. */
const MODULE_URL = '/browser/quarry-browser.js';
const PAGE_SIZE = 10;

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const params = new URLSearchParams(location.search);
const indexInput = /** @type {HTMLInputElement} */ (byId('index'));
const tableSelect = /** @type {HTMLSelectElement} */ (byId('table'));
const queryInput = /** @type {HTMLInputElement} */ (byId('query'));
const prevButton = /** @type {HTMLButtonElement} */ (byId('prev'));
const nextButton = /** @type {HTMLButtonElement} */ (byId('next'));
indexInput.value = params.get('index') ?? '';
queryInput.value = params.get('q') ?? '';

const TAGS = highlightTags();
const HIGHLIGHT = { pre_tags: TAGS.pre, post_tags: TAGS.post };
let offset = 0;
/** Both sides' max_matches: a page from it on is searchd's "offset out of bounds" error, so Next stops before it. */
const MAX_MATCHES = 1000;

/** @param {string} id @param {string} message @param {boolean} [isError] */
function status(id, message, isError = false) {
  byId(id).replaceChildren(isError ? errorBox('Error:', message) : message);
}
/** @param {unknown} err */
const errorMessage = (err) => (err instanceof Error ? err.message : String(err));

/** The browser module, or null (with the reason shown) when this server does not serve it. */
async function loadModule() {
  const probe = await fetch(MODULE_URL, { method: 'HEAD' }).catch(() => null);
  if (!probe || !probe.ok) {
    status('module-status', `The browser module is not available on this server (${MODULE_URL}: ` +
      `${probe ? `HTTP ${probe.status}` : 'unreachable'}). It is part of quarry's browser build; ` +
      'the server search below still works.', true);
    return null;
  }
  try {
    return await import(MODULE_URL);
  } catch (err) {
    status('module-status', `The browser module failed to load: ${errorMessage(err)}`, true);
    return null;
  }
}

async function loadTables() {
  const res = await fetch('/sql?mode=raw', { method: 'POST', body: 'SHOW TABLES' });
  const [result] = parseServerJson(await res.text());
  for (const row of result?.data ?? []) tableSelect.append(el('option', { value: row.Table, text: row.Table }));
  tableSelect.value = params.get('table') ?? '';
}

/**
 * A hit with its highlight: `highlight` is the JSON API's shape (field -> fragments) from either side.
 * @param {string} id @param {string} weight @param {unknown} highlight
 */
function hitItem(id, weight, highlight) {
  const fields = highlight && typeof highlight === 'object' ? Object.entries(highlight) : [];
  return el('li', { class: 'hit', 'data-id': id }, [
    el('div', { class: 'hit-head' }, [el('span', { class: 'hit-id', text: `#${id}` }), el('span', { class: 'hit-weight', text: `weight ${weight}` })]),
    ...fields.map(([field, fragments]) => el('p', { class: 'snippet' }, [
      el('span', { class: 'field-name', text: field }),
      markedText(Array.isArray(fragments) ? fragments.map(cellText).join(' … ') : cellText(fragments), TAGS),
    ])),
  ]);
}

/** What the two sides must agree on for a hit: id, weight and highlight. @param {unknown} id @param {unknown} weight @param {unknown} highlight */
const hitKey = (id, weight, highlight) => `${id}:${weight}:${JSON.stringify(highlight ?? {})}`;

/** @param {any} idx @param {string} query @returns {Promise<string[] | null>} a hitKey per hit */
async function searchInPage(idx, query) {
  if (!idx) return null;
  try {
    const res = await idx.search(query, { limit: PAGE_SIZE, offset, highlight: HIGHLIGHT });
    byId('page-hits').replaceChildren(...res.hits.map((/** @type {any} */ h) => hitItem(String(h.id), String(h.weight), h.highlight)));
    status('page-status', `${res.total} hit(s)`);
    return res.hits.map((/** @type {any} */ h) => hitKey(h.id, h.weight, h.highlight));
  } catch (err) {
    byId('page-hits').replaceChildren();
    status('page-status', errorMessage(err), true);
    return null;
  }
}

/** @param {string} query @returns {Promise<{ keys: string[], total: number } | null>} */
async function searchOnServer(query) {
  const table = tableSelect.value;
  if (!table) return null;
  const body = { table, query: query.trim() ? { query_string: query } : { match_all: {} }, highlight: HIGHLIGHT, limit: PAGE_SIZE, offset };
  try {
    const res = await fetch('/search', { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
    const reply = parseServerJson(await res.text());
    if (reply.error) throw new Error(typeof reply.error === 'string' ? reply.error : JSON.stringify(reply.error));
    const hits = reply.hits.hits;
    byId('server-hits').replaceChildren(...hits.map((/** @type {any} */ h) => hitItem(h._id, h._score, h.highlight)));
    status('server-status', `${reply.hits.total} hit(s) · ${reply.took} ms`);
    return { keys: hits.map((/** @type {any} */ h) => hitKey(h._id, h._score, h.highlight)), total: Number(reply.hits.total) };
  } catch (err) {
    byId('server-hits').replaceChildren();
    status('server-status', errorMessage(err), true);
    return null;
  }
}

/** Runs started so far: only the latest one writes the comparison. */
let runs = 0;

/** @param {any} idx */
async function run(idx) {
  const seq = ++runs;
  const query = queryInput.value;
  const [page, server] = await Promise.all([searchInPage(idx, query), searchOnServer(query)]);
  // a run started later (a file opened while the first query was out) has the last word
  if (seq !== runs) return;
  const same = page && server ? page.join() === server.keys.join() : null;
  byId('compare-status').textContent = same === null ? '' : same ? 'same ids, order, weights and highlights' : 'results differ';
  prevButton.disabled = offset === 0;
  nextButton.disabled = !server || offset + PAGE_SIZE >= Math.min(server.total, MAX_MATCHES);
}

/**
 * What a failed fetch of a folder on another origin may mean: the browser hides the reason ("Failed to
 * fetch" for a server that is down and for one that sends no CORS header alike, as python3 -m
 * http.server, README's example, does not), so the page names both and the way round them.
 * @param {string | ArrayBuffer} source @param {unknown} err
 */
function fetchHint(source, err) {
  if (typeof source !== 'string' || !(err instanceof TypeError)) return '';
  if (new URL(source, location.href).origin === location.origin) return '';
  return ` (the browser gives no reason: that server is not reachable, or it sends no CORS header, ` +
    `Access-Control-Allow-Origin, which a folder on another origin needs; python3 -m http.server sends none. ` +
    'Serve the folder with one, or pick its table.qimg with "or file".)';
}

/** The opened export, or null. @type {any} */
let idx = null;

/**
 * Opens an export (a folder URL, or an image's bytes) with the module and runs the query.
 * @param {any} mod @param {string | ArrayBuffer} source @param {string} label
 */
async function open(mod, source, label) {
  try {
    idx = await mod.openIndex(source);
    status('module-status', `Opened ${label} in the page.`);
  } catch (err) {
    idx = null;
    status('module-status', `Cannot open ${label}: ${errorMessage(err)}${fetchHint(source, err)}`, true);
  }
}

async function main() {
  const [mod] = await Promise.all([loadModule(), loadTables().catch(() => undefined)]);
  const fileInput = /** @type {HTMLInputElement} */ (byId('image-file'));
  fileInput.disabled = !mod;
  // listeners first: the status line below tells a user (and the e2e test) the page is ready, and a file
  // chosen while the first query is out must not be lost
  fileInput.addEventListener('change', async () => {
    const file = fileInput.files?.[0];
    if (!file || !mod) return;
    await open(mod, await file.arrayBuffer(), file.name);
    offset = 0;
    await run(idx);
  });
  // a new folder URL reloads the page (its policy must allow that origin); anything else runs here
  byId('demo-form').addEventListener('submit', (e) => {
    if (indexInput.value !== (params.get('index') ?? '')) return;
    e.preventDefault();
    offset = 0;
    void run(idx);
  });
  prevButton.addEventListener('click', () => { offset = Math.max(0, offset - PAGE_SIZE); void run(idx); });
  nextButton.addEventListener('click', () => { offset += PAGE_SIZE; void run(idx); });
  if (mod && indexInput.value) await open(mod, indexInput.value, indexInput.value);
  else if (mod) status('module-status', 'Browser module loaded: give the URL of an exported folder or open its table.qimg.');
  if (queryInput.value || tableSelect.value) await run(idx);
}

void main();
