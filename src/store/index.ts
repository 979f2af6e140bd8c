/** The store of record: documents, op log, catalog, meta and checkpointed segment files. */
export { Store, DEFAULT_DELETE_CHUNK } from './store.js';
export { checkEmptyTarget } from './backup.js';
export type {
  Checkpoint, LoggedOp, SegmentBlob, SegmentEntry, StoredDoc, StoreOptions, WriteOp,
} from './types.js';
