// @ts-check
/**
 * The web console: full-text search over a table and a SQL runner, both through the ordinary HTTP API
 * (`/sql?mode=raw` for the search, `/cli_json` for typed SQL, whose body is taken exactly as sent).
 * Every request is shown as sent. No framework: the page's DOM, fetch, and render.js's text-only helpers.
 */
import { cellText, el, errorBox, highlightTags, markedText, parseServerJson, resultTable } from './render.js';

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const tableSelect = /** @type {HTMLSelectElement} */ (byId('table'));
const queryInput = /** @type {HTMLInputElement} */ (byId('query'));
const pageSizeSelect = /** @type {HTMLSelectElement} */ (byId('page-size'));
const sqlInput = /** @type {HTMLTextAreaElement} */ (byId('sql'));
const prevButton = /** @type {HTMLButtonElement} */ (byId('prev'));
const nextButton = /** @type {HTMLButtonElement} */ (byId('next'));

const TAGS = highlightTags();
/** Requests shown in the "Sent" panel, newest first. */
const SENT_KEPT = 6;
/** Manticore's default max_matches: rows past it cannot be paged to without OPTION max_matches. */
const MAX_MATCHES = 1000;
/** Table names the console puts into SQL unquoted; SHOW TABLES never lists anything else. */
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const search = { table: '', query: '', offset: 0, total: 0, seq: 0 };
/** @type {Map<string, string[]>} full-text field names by table, in schema order (from DESCRIBE) */
const textFields = new Map();

/**
 * POSTs a body, records it in the "Sent" panel, and returns the parsed reply (or throws with the
 * server's error message).
 * @param {string} path
 * @param {string} body
 */
async function post(path, body) {
  const started = performance.now();
  /** @type {{ path: string, body: string, status: string }} */
  const entry = { path, body, status: 'pending' };
  let reply;
  try {
    const res = await fetch(path, { method: 'POST', body, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    const text = await res.text();
    entry.status = `${res.status} · ${Math.round(performance.now() - started)} ms`;
    try {
      reply = parseServerJson(text);
    } catch {
      throw new Error(`HTTP ${res.status}: ${text.slice(0, 300)}`);
    }
    if (!Array.isArray(reply)) throw new Error(reply && typeof reply.error === 'string' ? reply.error : text.slice(0, 300));
    return reply;
  } catch (err) {
    if (entry.status === 'pending') entry.status = 'failed';
    throw err;
  } finally {
    showSent(entry);
  }
}

/** @type {HTMLElement[]} */
const sentItems = [];
/** @param {{ path: string, body: string, status: string }} entry */
function showSent(entry) {
  const item = el('li', {}, [
    el('div', { class: 'sent-head' }, [el('code', { text: `POST ${entry.path}` }), el('span', { class: 'muted', text: entry.status })]),
    el('pre', { text: entry.body }),
  ]);
  sentItems.unshift(item);
  sentItems.length = Math.min(sentItems.length, SENT_KEPT);
  byId('sent').replaceChildren(...sentItems);
}

/** A SQL string literal: backslashes and quotes escaped, as Manticore's lexer reads them. */
const sqlString = (/** @type {string} */ s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** @param {string} message @param {boolean} [isError] */
function setStatus(message, isError = false) {
  const status = byId('search-status');
  status.replaceChildren(isError ? errorBox('Error:', message) : message);
}

async function loadTables() {
  const previous = tableSelect.value;
  try {
    const [result] = await post('/sql?mode=raw', 'SHOW TABLES');
    const tables = (result.data ?? []).filter((/** @type {any} */ r) => TABLE_NAME.test(r.Table));
    tableSelect.replaceChildren(...tables.map((/** @type {any} */ r) => el('option', { value: r.Table, text: `${r.Table} (${r.Type})` })));
    if (tables.some((/** @type {any} */ r) => r.Table === previous)) tableSelect.value = previous;
    if (tables.length === 0) setStatus('No tables yet: create one with the SQL box, e.g. CREATE TABLE docs (title text, body text)');
  } catch (err) {
    setStatus(`SHOW TABLES failed: ${errorMessage(err)}`, true);
  }
}

/** @param {string} table @returns {Promise<string[]>} */
async function fieldsOf(table) {
  const known = textFields.get(table);
  if (known) return known;
  const [result] = await post('/sql?mode=raw', `DESCRIBE ${table}`);
  /** @type {string[]} */
  const fields = (result.data ?? []).filter((/** @type {any} */ r) => r.Type === 'text').map((/** @type {any} */ r) => String(r.Field));
  textFields.set(table, fields);
  return fields;
}

/**
 * The search as SQL: every column, the weight, each full-text field highlighted on its own (so the page
 * can label it), then SHOW META for the totals.
 * @param {string[]} fields the table's full-text fields, in schema order
 */
function searchSql(fields) {
  const size = Number(pageSizeSelect.value);
  const where = search.query.trim() === '' ? '' : ` WHERE MATCH(${sqlString(search.query)})`;
  const options = `{before_match=${sqlString(TAGS.pre)}, after_match=${sqlString(TAGS.post)}}`;
  const highlights = fields.map((f) => `, HIGHLIGHT(${options}, ${sqlString(f)})`).join('');
  return `SELECT *, WEIGHT()${highlights} FROM ${search.table}${where} LIMIT ${search.offset},${size}; SHOW META`;
}

async function runSearch() {
  if (!TABLE_NAME.test(search.table)) return setStatus('Pick a table first.', true);
  const hitList = byId('hits');
  const seq = ++search.seq; // a slower earlier search must not overwrite a later one
  try {
    const fields = await fieldsOf(search.table);
    const [hits, meta] = await post('/sql?mode=raw', searchSql(fields));
    if (seq !== search.seq) return;
    if (hits.error) throw new Error(hits.error);
    const metaValue = (/** @type {string} */ name) => (meta?.data ?? []).find((/** @type {any} */ r) => r.Variable_name === name)?.Value;
    // total_found counts every match; `total` only the rows this page retrieved
    const found = metaValue('total_found') ?? '0';
    search.total = Math.min(Number(found), MAX_MATCHES);
    const columns = (hits.columns ?? []).map((/** @type {object} */ c) => Object.keys(c)[0]);
    // the select list ends with WEIGHT() and one HIGHLIGHT() per field: found by position, whatever the table holds
    const tableColumns = columns.length - fields.length - 1;
    const weightCol = columns[tableColumns];
    const snippets = fields.map((f, i) => ({ field: f, column: columns[tableColumns + 1 + i] }));
    const attrs = columns.slice(0, tableColumns).filter((/** @type {string} */ c) => c !== 'id' && !fields.includes(c));
    hitList.replaceChildren(...hits.data.map((/** @type {any} */ row) => hitItem(row, weightCol, snippets, attrs)));
    const size = Number(pageSizeSelect.value);
    const about = metaValue('total_relation') === 'gte' ? '≥ ' : '';
    const shown = hits.data.length === 0 ? 'No hits' : `${search.offset + 1}–${search.offset + hits.data.length} of ${about}${found}`;
    setStatus(`${shown} · ${metaValue('time') ?? '?'} s`);
    prevButton.disabled = search.offset === 0;
    nextButton.disabled = search.offset + size >= search.total;
    byId('page-info').textContent = search.total ? `page ${Math.floor(search.offset / size) + 1} of ${Math.ceil(search.total / size)}` : '';
  } catch (err) {
    if (seq !== search.seq) return;
    hitList.replaceChildren();
    prevButton.disabled = nextButton.disabled = true;
    byId('page-info').textContent = '';
    setStatus(errorMessage(err), true);
  }
}

/**
 * One hit: id, weight, each field's snippet with marks, and the attributes.
 * @param {Record<string, unknown>} row @param {string} weightCol
 * @param {{ field: string, column: string }[]} snippets @param {string[]} attrs
 */
function hitItem(row, weightCol, snippets, attrs) {
  return el('li', { class: 'hit', 'data-id': cellText(row.id) }, [
    el('div', { class: 'hit-head' }, [
      el('span', { class: 'hit-id', text: `#${cellText(row.id)}` }),
      el('span', { class: 'hit-weight', title: 'WEIGHT()', text: `weight ${cellText(row[weightCol])}` }),
    ]),
    ...snippets.filter((s) => row[s.column]).map((s) => el('p', { class: 'snippet' }, [
      el('span', { class: 'field-name', text: s.field }), markedText(cellText(row[s.column]), TAGS),
    ])),
    attrs.length === 0 ? null : el('dl', { class: 'attrs' }, attrs.flatMap((a) => [el('dt', { text: a }), el('dd', { text: cellText(row[a]) })])),
  ]);
}

async function runSql() {
  const out = byId('sql-output');
  const statement = sqlInput.value;
  try {
    const results = await post('/cli_json', statement);
    out.replaceChildren(...results.map(resultBlock));
    if (/\b(create|drop|alter|import|attach|truncate)\b/i.test(statement)) {
      textFields.clear();
      await loadTables();
    }
  } catch (err) {
    out.replaceChildren(errorBox('Error:', errorMessage(err)));
  }
}

/** One statement's answer: a table, "Query OK", or its error. @param {any} r */
function resultBlock(r) {
  if (r.error) return errorBox('Error:', r.error);
  const parts = [];
  if (r.columns) {
    const names = r.columns.map((/** @type {object} */ c) => Object.keys(c)[0]);
    const types = r.columns.map((/** @type {any} */ c) => Object.values(c)[0]?.type ?? '');
    parts.push(resultTable(names, r.data ?? [], types));
    parts.push(el('p', { class: 'muted', text: `${(r.data ?? []).length} row(s)` }));
  } else {
    parts.push(el('p', { class: 'ok', text: `Query OK, ${r.total ?? 0} row(s) affected` }));
  }
  if (r.warning) parts.push(el('p', { class: 'warning', text: `Warning: ${r.warning}` }));
  return el('div', { class: 'result' }, parts);
}

/** @param {unknown} err */
const errorMessage = (err) => (err instanceof Error ? err.message : String(err));

function startSearch() {
  search.table = tableSelect.value;
  search.query = queryInput.value;
  search.offset = 0;
  // the search in the address (#table=..&q=..), so a reload or a shared link repeats it
  history.replaceState(null, '', `#${new URLSearchParams({ table: search.table, q: search.query })}`);
  void runSearch();
}

/** Picks the table and query of the address's fragment, if its table exists, and runs the search. */
function searchFromAddress() {
  const wanted = new URLSearchParams(location.hash.slice(1));
  const table = wanted.get('table');
  if (!table || ![...tableSelect.options].some((o) => o.value === table)) return;
  tableSelect.value = table;
  queryInput.value = wanted.get('q') ?? '';
  startSearch();
}

byId('search-form').addEventListener('submit', (e) => { e.preventDefault(); startSearch(); });
byId('sql-form').addEventListener('submit', (e) => { e.preventDefault(); void runSql(); });
sqlInput.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); void runSql(); }
});
tableSelect.addEventListener('change', startSearch);
pageSizeSelect.addEventListener('change', () => { if (search.table) startSearch(); });
byId('refresh-tables').addEventListener('click', () => { textFields.clear(); void loadTables().then(searchFromAddress); });
prevButton.addEventListener('click', () => {
  search.offset = Math.max(0, search.offset - Number(pageSizeSelect.value));
  void runSearch();
});
nextButton.addEventListener('click', () => {
  search.offset += Number(pageSizeSelect.value);
  void runSearch();
});
void loadTables().then(searchFromAddress);
