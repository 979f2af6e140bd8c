/** SphinxQL parser: `parseSql(text)` -> statements; pure, no engine knowledge. */
export { parseSql } from './parse-sql.js';
export { selectItemName } from './select-parser.js';
export type * from './ast.js';
