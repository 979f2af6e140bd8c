/** Full-text query languages: extended query syntax and the JSON full-text forms, to one query tree. */
export type * from './ast.js';
export { parseQuery, type ParseOptions } from './parse-query.js';
export { toText } from './to-text.js';
export { isNothing, nothing } from './to-ast.js';
export { defaultIsWordChar, type WordCharTest } from './char-scanner.js';
export { quorumThreshold } from './c-number.js';
export {
  andOf, boolOf, finishQuery, fullTextNode, hasFullText, isFullTextProperty, maybeOf, notOf, orOf,
  FULL_TEXT_PROPERTIES, type BoolParts, type FullTextResult, type JsonQueryOptions,
} from './json-query.js';
