/**
 * Manticore's replication-cluster statements: CREATE CLUSTER, JOIN CLUSTER, ALTER CLUSTER ADD/DROP,
 * DELETE CLUSTER (manual: Creating_a_cluster/Setting_up_replication). What they do is the replication
 * layer's (src/replication/); this file only reads them.
 */
import type { ClusterOption, ClusterStatement } from './ast.js';
import type { Cursor } from './cursor.js';
import { parseName, parseTableName } from './table-name.js';

/** `'value' AS name [, 'value' AS name ...]`: CREATE/JOIN CLUSTER's options (path, nodes, user). */
function parseClusterOptions(c: Cursor): ClusterOption[] {
  const out: ClusterOption[] = [];
  if (c.peek().kind !== 'string') return out;
  do {
    const v = c.peek();
    if (v.kind !== 'string') c.fail(['string']);
    c.next();
    c.expectKw('AS');
    out.push({ name: parseName(c).toLowerCase(), value: v.value });
  } while (c.acceptPunct(','));
  return out;
}

function clusterName(c: Cursor): string {
  return parseName(c, ['identifier']);
}

/** CREATE CLUSTER c ['path' AS path, 'nodes' AS nodes]. */
export function parseCreateCluster(c: Cursor): ClusterStatement {
  c.expectKw('CREATE');
  c.expectKw('CLUSTER');
  const cluster = clusterName(c);
  return { kind: 'create_cluster', text: '', cluster, options: parseClusterOptions(c) };
}

/** JOIN CLUSTER c AT 'host:port' [options], or JOIN CLUSTER c 'a:9312;b:9312' AS nodes. */
export function parseJoinCluster(c: Cursor): ClusterStatement {
  c.expectKw('JOIN');
  c.expectKw('CLUSTER');
  const cluster = clusterName(c);
  let at: string | undefined;
  if (c.acceptKw('AT')) {
    const t = c.peek();
    if (t.kind !== 'string') c.fail(['string']);
    c.next();
    at = t.value;
  }
  return { kind: 'join_cluster', text: '', cluster, at, options: parseClusterOptions(c) };
}

/** ALTER CLUSTER c ADD t[, t2] | DROP t[, t2] | UPDATE nodes. */
export function parseAlterCluster(c: Cursor): ClusterStatement {
  c.expectKw('ALTER');
  c.expectKw('CLUSTER');
  const cluster = clusterName(c);
  if (c.acceptKw('UPDATE')) {
    const what = parseName(c, ['nodes']);
    return { kind: 'alter_cluster', text: '', cluster, op: 'update', tables: [what.toLowerCase()] };
  }
  const op = c.acceptKw('ADD') ? 'add' : c.acceptKw('DROP') ? 'drop' : c.fail(['ADD', 'DROP', 'UPDATE']);
  const tables: string[] = [];
  do tables.push(parseTableName(c).toLowerCase());
  while (c.acceptPunct(','));
  return { kind: 'alter_cluster', text: '', cluster, op, tables };
}

/** DELETE CLUSTER c. */
export function parseDeleteCluster(c: Cursor): ClusterStatement {
  c.expectKw('DELETE');
  c.expectKw('CLUSTER');
  return { kind: 'delete_cluster', text: '', cluster: clusterName(c) };
}
