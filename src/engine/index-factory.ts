/** The one place the engine constructs RT indexes (and the WASM core behind them). */
import type { IndexSchema } from '../index/types.js';
import { RtIndex } from '../index/rt-index.js';

export function createIndex(schema: IndexSchema): RtIndex {
  return new RtIndex(schema);
}
