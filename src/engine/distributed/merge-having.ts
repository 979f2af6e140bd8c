/**
 * HAVING over merged groups: the master applies it after the merge (a shard's partial count says
 * nothing of the whole group's). Filters name an output column by alias, name or expression text.
 */
import type { Condition, Literal } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import type { Cell } from '../result.js';
import { fromSql } from '../values/sql-values.js';
import { literalValue } from '../values/value-compare.js';
import { compareCells } from './merge-rows.js';

function lit(l: Literal): Cell {
  const v = literalValue(fromSql(l));
  return v;
}

export function havingPasses(c: Condition, names: string[], row: Cell[]): boolean {
  const target = (t: { expr: { text: string } }): Cell => {
    const at = names.indexOf(t.expr.text.toLowerCase());
    if (at < 0) throw new SearchError('QUERY_ERROR', `HAVING over a distributed table: '${t.expr.text}' must be in the select list`);
    return row[at]!;
  };
  switch (c.kind) {
    case 'and': return c.children.every((x) => havingPasses(x, names, row));
    case 'or': return c.children.some((x) => havingPasses(x, names, row));
    case 'not': return !havingPasses(c.child, names, row);
    case 'compare': {
      const d = compareCells(target(c.target), lit(c.value));
      switch (c.op) {
        case '=': return d === 0;
        case '!=': return d !== 0;
        case '<': return d < 0;
        case '<=': return d <= 0;
        case '>': return d > 0;
        default: return d >= 0;
      }
    }
    case 'between': {
      const v = target(c.target);
      const inside = compareCells(v, lit(c.low)) >= 0 && compareCells(v, lit(c.high)) <= 0;
      return inside !== c.negate;
    }
    case 'in': {
      const v = target(c.target);
      return c.values.some((l) => compareCells(v, lit(l)) === 0) !== c.negate;
    }
    case 'is_null': return (target(c.target) === null) !== c.negate;
  }
}
