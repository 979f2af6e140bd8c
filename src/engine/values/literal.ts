/**
 * A value as a user wrote it, before it meets a column type: the common ground of SQL literals
 * and JSON values. Integers stay exact (bigint); floats keep their text for exact re-printing.
 */
export type Literal =
  | { t: 'int'; v: bigint }
  | { t: 'float'; v: number }
  | { t: 'string'; v: string }
  | { t: 'bool'; v: boolean }
  | { t: 'null' }
  | { t: 'tuple'; v: Literal[] }
  /** A JSON array or object given as a value (JSON API), as compact JSON text. */
  | { t: 'json'; v: string };

export function describeLiteral(l: Literal): string {
  switch (l.t) {
    case 'int': return l.v.toString();
    case 'float': return String(l.v);
    case 'string': return `'${l.v}'`;
    case 'bool': return String(l.v);
    case 'null': return 'NULL';
    case 'tuple': return `(${l.v.map(describeLiteral).join(',')})`;
    case 'json': return l.v;
  }
}
