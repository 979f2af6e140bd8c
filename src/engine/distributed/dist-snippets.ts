/**
 * CALL SNIPPETS naming a distributed table. Plain texts are built by its first local table (or its
 * first agent when it has none). With load_files the file names are split between the first local
 * table and the agents, each loading and highlighting its share (Manticore's way of spreading the
 * work: one local and several remote agents); a failure anywhere fails the call. With
 * load_files_scattered every node is asked for every file and returns an empty text for a file it
 * does not have; the non-empty answers are merged, and a failed agent is skipped. With both set, a
 * file that no node has is an error.
 */
import { excerptAgent, type ExcerptRequest } from '../../agent/agent-client.js';
import { agentOptions } from './agent-pools.js';
import type { CallStatement, NamedValue } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import { rows, stringColumns, type Result } from '../result.js';
import { callSnippets, optionsOf } from '../snippets/snippet-call.js';
import { snippetOptions, type SnippetOptions } from '../../highlight/snippet-options.js';
import { mirrorOrder } from './agent-health.js';
import { haFor } from './ha-settings.js';
import type { DistributedDef } from './dist-def.js';

/** searchd's EXCERPT_FLAG_* bits for the options an agent must see. */
function excerptFlags(o: SnippetOptions, scattered: boolean): number {
  let f = 32; // query mode: the full query syntax, as CALL SNIPPETS parses it
  if (o.useBoundaries) f |= 8;
  if (o.weightOrder) f |= 16;
  if (o.forceAllWords) f |= 64;
  if (o.allowEmpty) f |= 256;
  if (o.emitZones) f |= 512;
  return f | (scattered ? 1024 : 128);
}

type Worker = (docs: string[], scattered: boolean) => Promise<string[]>;

function localWorker(catalog: Catalog, st: CallStatement, table: string): Worker {
  return async (docs, scattered) => {
    const options: NamedValue[] = st.options.filter((o) => o.name !== 'load_files' && o.name !== 'load_files_scattered');
    options.push({ name: scattered ? 'load_files_scattered' : 'load_files', value: { kind: 'int', value: 1, text: '1' } });
    const r = await callSnippets(catalog, {
      ...st, args: [{ kind: 'string_list', values: docs }, { kind: 'string', value: table }, st.args[2]!], options,
    } as CallStatement);
    if (r.kind !== 'rows') throw new SearchError('QUERY_ERROR', r.kind === 'error' ? r.message : 'no snippets');
    return r.rows.map((row) => String(row[0] ?? ''));
  };
}

function remoteWorker(def: DistributedDef, i: number, words: string, o: SnippetOptions): Worker {
  const agent = def.agents.filter((a) => !a.blackhole)[i]!;
  return async (docs, scattered) => {
    const m = mirrorOrder(agent, def.haStrategy, Math.random, haFor(def.ha).karmaPeriodMs)[0]!;
    const req: ExcerptRequest = {
      index: m.indexes.split(/[\s,]+/)[0]!, words, docs, flags: excerptFlags(o, scattered), beforeMatch: o.beforeMatch,
      afterMatch: o.afterMatch, separator: o.snippetSeparator, limit: o.limit, around: o.around, limitPassages: o.limitSnippets,
      limitWords: o.limitWords, startPassageId: o.startSnippetId, htmlStripMode: o.htmlStripMode, passageBoundary: o.snippetBoundary,
    };
    try {
      return await excerptAgent(m, req, agentOptions(def, agent));
    } catch (e) {
      throw new SearchError('QUERY_ERROR', `agent ${m.host}:${m.port}: ${(e as Error).message}`);
    }
  };
}

export async function callSnippetsDistributed(catalog: Catalog, def: DistributedDef, st: CallStatement): Promise<Result> {
  const [data, , query] = st.args;
  if (!data || !query || query.kind !== 'string' || (data.kind !== 'string' && data.kind !== 'string_list')) {
    return callSnippets(catalog, st); // its argument errors
  }
  const docs = data.kind === 'string' ? [data.value] : data.values;
  const o = snippetOptions(optionsOf(st));
  const workers: Worker[] = [];
  if (def.locals.length) workers.push(localWorker(catalog, st, def.locals[0]!));
  def.agents.filter((a) => !a.blackhole).forEach((_, i) => workers.push(remoteWorker(def, i, query.value, o)));
  if (!workers.length) throw new SearchError('QUERY_ERROR', `table ${def.name}: no local table or agent to build snippets`);
  if (!o.loadFiles && !o.loadFilesScattered) {
    if (def.locals.length) return callSnippets(catalog, { ...st, args: [data, { kind: 'string', value: def.locals[0]! }, query] } as CallStatement);
    return rows(stringColumns('snippet'), (await workers[0]!(docs, false)).map((s) => [s]));
  }
  if (o.loadFilesScattered) {
    const answers = await Promise.allSettled(workers.map((w) => w(docs, true)));
    const ok = answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    if (!ok.length) throw (answers[0] as PromiseRejectedResult).reason;
    const merged = docs.map((_, i) => ok.map((texts) => texts[i] ?? '').find((t) => t !== '') ?? '');
    const missing = merged.findIndex((t) => t === '');
    if (o.loadFiles && missing >= 0) throw new SearchError('QUERY_ERROR', `failed to open ${docs[missing]}: No such file or directory on any agent`);
    return rows(stringColumns('snippet'), merged.map((s) => [s]));
  }
  // load_files alone: contiguous shares, one per node
  const share = Math.ceil(docs.length / workers.length);
  const parts = workers.map((w, i) => {
    const part = docs.slice(i * share, (i + 1) * share);
    return part.length ? w(part, false) : Promise.resolve([]);
  });
  const texts = (await Promise.all(parts)).flat();
  return rows(stringColumns('snippet'), texts.map((s) => [s]));
}
