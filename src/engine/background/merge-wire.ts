/**
 * The messages between the protocol thread (merge-thread.ts) and the merge thread (merge-worker.ts).
 * Dictionaries are what is costly to send (a structured clone of every term string, serialized on the
 * sender's thread and deserialized on the receiver's): the merge thread keeps the dictionary of each
 * segment it built, so a later job names it by key instead of sending it again; a dictionary it does
 * not have goes ahead of the job in chunks, and the merged one comes back in chunks, one per event-loop
 * task of the protocol thread, each asked for.
 */
import type { IndexSchema } from '../../index/types.js';

/**
 * Terms a reply carries at most: deserializing them is one task of the protocol thread (~20-100 ns a
 * term), so a merged dictionary of 500k terms arrives over ~30 tasks of a few ms instead of one stall.
 */
export const TERMS_CHUNK = 16384;

/** One part of a job: the key its dictionary is kept under on the merge thread (built there, or sent ahead). */
export interface WirePart {
  blobPtr: number;
  deleted: Uint8Array;
  key: number;
}

/** Terms of a dictionary the merge thread does not have, sent ahead of the job (appended under `add`). */
export interface AddMessage {
  add: number;
  terms: readonly string[];
}

/** A job, with the keys of kept dictionaries whose segments are gone (`forget`). */
export interface JobMessage {
  id: number;
  job: { schema: IndexSchema; parts: WirePart[] };
  forget: number[];
}

/** The protocol thread asks for the next chunk of job `more`'s reply. */
export interface MoreMessage { more: number }

/**
 * A reply: a chunk of the merged dictionary (`terms` alone; the protocol thread answers with a
 * MoreMessage), the last one with the blob, the key the thread keeps the dictionary under and each
 * part's old row -> merged row map; or an error.
 */
export interface ReplyMessage {
  id: number;
  terms?: string[];
  blob?: Uint8Array;
  key?: number;
  forward?: Int32Array[];
  error?: string;
}
