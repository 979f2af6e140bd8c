/**
 * The query-operator benchmark's Sphinx 2.2.11 peer: an RT index with the synthetic corpus's two
 * fields, dict=keywords and min_infix_len=2 (so prefix and infix wildcards expand), no morphology.
 */
import { sphinxAvailable, startSphinx, type SphinxPeer } from './sphinx.js';

export type OpsPeer = SphinxPeer;

function opsIndex(dir: string): string {
  return `
index ops {
  type = rt
  path = ${dir}/ops
  rt_field = title
  rt_field = body
  rt_attr_uint = gid
  dict = keywords
  min_infix_len = 2
  rt_mem_limit = 2047M
}`;
}

/** The peer, or null when sphinxsearch is not installed. No binlog: this benchmark measures reads. */
export async function startOpsSphinx(dir: string, port: number): Promise<OpsPeer | null> {
  if (!sphinxAvailable()) return null;
  return startSphinx(dir, port, opsIndex(dir), false);
}
