// ORDER BY an expression: the formula (attributes, constants, operators, math functions; the
// ranker's bytecode without factors) evaluated for every row of a segment into an f64 column that
// the top-K then reads as a sort key (SK_F64). The host never materialises the rows.

import { evalExprValue, setExprRow, X_RAND_ID } from "./expr";
import { randColumn } from "./rand-id";

export function exprColumn(blob: usize, code: usize, len: u32, rows: u32, out: usize): void {
  // ORDER BY RAND() is the formula RAND() alone: its keys straight from the id column
  if (len == 2 && load<u32>(code) == X_RAND_ID) {
    randColumn(blob, load<u32>(code, 4), rows, out);
    return;
  }
  for (let r: u32 = 0; r < rows; r++) {
    setExprRow(blob, r);
    store<f64>(out + (<usize>r << 3), evalExprValue(code, len));
  }
}
