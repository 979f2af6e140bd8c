/**
 * Global user variables: SET GLOBAL @name = (1,2,3) keeps a sorted integer list (searchd's
 * SetLocalUserVar), `WHERE x IN @name` / `NOT IN @name` (and the same in HAVING) filters by it (its SPH_FILTER_USERVAR, bound
 * to the values when the search starts), SHOW GLOBAL VARIABLES lists each with its value count.
 */
import type { Condition, SetAssignment } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import type { GlobalSettings } from '../server-vars.js';

/**
 * SET GLOBAL @name = (values): its settings key and its integers (a float's integer part, as
 * GetValueInt), sorted; a value that is not a list is refused.
 */
export function uservarOf(a: SetAssignment): [string, bigint[]] {
  // SET GLOBAL @x = 5 / 'text' parses as a server setting named '@x' there (SET_GLOBAL_SVAR), which none is
  if (a.value.kind !== 'tuple') throw new SearchError('BAD_VALUE', `Unknown system variable '${a.user ? '@' : ''}${a.name}'`);
  const values = a.value.items.map((i) => (i.kind === 'int' ? BigInt(i.value) : BigInt(Math.trunc(i.value))));
  return [a.user ? `@${a.name}` : a.name, values.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))];
}

function usesUservar(c: Condition): boolean {
  switch (c.kind) {
    case 'in': return c.uservar !== undefined;
    case 'and': case 'or': return c.children.some(usesUservar);
    case 'not': return usesUservar(c.child);
    default: return false;
  }
}

function bind(c: Condition, vars: ReadonlyMap<string, bigint[]>, table: string): Condition {
  switch (c.kind) {
    case 'in': {
      if (c.uservar === undefined) return c;
      const values = vars.get(c.uservar);
      if (!values) throw new SearchError('QUERY_ERROR', `table ${table.toLowerCase()}: undefined global variable '${c.uservar}'`);
      return { kind: 'in', target: c.target, negate: c.negate, values: values.map((v) => ({ kind: 'int', value: v, text: String(v) })) };
    }
    case 'and': case 'or': return { kind: c.kind, children: c.children.map((x) => bind(x, vars, table)) };
    case 'not': return { kind: 'not', child: bind(c.child, vars, table) };
    default: return c;
  }
}

/**
 * The statement with its `IN @name` filters turned into value lists, a new object (the parsed one may be
 * a cached statement: parse-cache.ts); the same object when it names none.
 */
export function bindUservars<T extends { where?: Condition; having?: Condition }>(st: T, table: string, settings: GlobalSettings): T {
  const where = st.where && usesUservar(st.where);
  // HAVING takes one filter_item, `IN @name` among them (sphinxql.y opt_having_clause)
  const having = st.having && usesUservar(st.having);
  if (!where && !having) return st;
  const out = { ...st };
  if (where) out.where = bind(st.where!, settings.uservars, table);
  if (having) out.having = bind(st.having!, settings.uservars, table);
  return out;
}
