/**
 * JOIN CLUSTER c AT 'host:port': the joiner asks the node at that address for the cluster, as
 * Manticore's joiner asks its donor, over the node's binary API (the STATUS command, SHOW STATUS's
 * variables): the cluster's tables, nodes, status and last committed sequence there. The data itself
 * then comes from JetStream (snapshots and stream), which every node reaches.
 */
import { agentRequest } from '../agent/agent-client.js';
import { ApiReader, ApiWriter, Cmd, ServedVersion, Status } from '../agent/wire.js';
import { SearchError } from '../util/errors.js';

/** How long the donor has to answer (connect, then reply). */
const DONOR_TIMEOUTS = { connectMs: 3000, queryMs: 10_000 };

export interface DonorView {
  /** The address that answered. */
  node: string;
  tables: string[];
  nodes: string[];
  /** The stream sequence the donor had committed when asked: the joiner is synced once past it. */
  lastCommitted: number;
}

/** `host:port` -> its parts; undefined when it is not an address. */
function address(at: string): { host: string; port: number } | undefined {
  const m = /^\s*(.+):(\d{1,5})\s*$/.exec(at);
  const port = m ? Number(m[2]) : 0;
  return m && port > 0 && port < 65536 ? { host: m[1]!.replace(/^\[(.*)\]$/, '$1'), port } : undefined;
}

/** The STATUS command's variables at `to`. */
async function statusOf(to: { host: string; port: number }): Promise<Map<string, string>> {
  const r = await agentRequest(to, Cmd.STATUS, ServedVersion[Cmd.STATUS]!, new ApiWriter().u32(1).bytes(), DONOR_TIMEOUTS);
  const rd = new ApiReader(r.body);
  if (r.status !== Status.OK && r.status !== Status.WARNING) throw new Error(rd.str() || `status ${r.status}`);
  const rows = rd.u32();
  const cols = rd.u32();
  const vars = new Map<string, string>();
  for (let i = 0; i < rows && !rd.truncated; i++) {
    const row = Array.from({ length: cols }, () => rd.str());
    vars.set(row[0] ?? '', row[1] ?? '');
  }
  if (rd.truncated) throw new Error('failed to parse remote reply');
  return vars;
}

const list = (v: string | undefined) => (v ?? '').split(/[,;\s]+/).filter(Boolean);

/**
 * Asks each address of `at` (one, or a list as in `'a:9312,b:9312' AS nodes`) in turn; the first
 * that is a member of `cluster` gives its view. Fails with Manticore's "no nodes available" error.
 */
export async function askDonor(at: string, cluster: string): Promise<DonorView> {
  const errors: string[] = [];
  for (const node of list(at)) {
    const to = address(node);
    if (!to) { errors.push(`'${node}' is not a host:port address`); continue; }
    let vars: Map<string, string>;
    try {
      vars = await statusOf(to);
    } catch (e) {
      errors.push(`'${node}': ${(e as Error).message}`);
      continue;
    }
    const p = `cluster_${cluster}_`;
    if (vars.get(`${p}status`) === undefined) { errors.push(`unknown cluster '${cluster}'`); continue; }
    if (vars.get(`${p}status`) !== 'primary') { errors.push(`'${node}': cluster '${cluster}' is ${vars.get(`${p}status`)} there`); continue; }
    return {
      node,
      tables: list(vars.get(`${p}indexes`)),
      nodes: list(vars.get(`${p}nodes_view`)),
      lastCommitted: Number(vars.get(`${p}last_committed`) ?? 0) || 0,
    };
  }
  throw new SearchError('BAD_VALUE', `cluster '${cluster}', no nodes available(${at}), error: ${errors.join('; ') || 'no address given'}`);
}
