/** The one place the engine constructs RT indexes (and the WASM core behind them). */
import type { IndexSchema, RtIndexApi } from '../index/types.js';
import { RtIndex } from '../index/rt-index.js';

export function createIndex(schema: IndexSchema): RtIndexApi {
  return new RtIndex(schema);
}
