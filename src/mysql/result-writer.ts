/** Writes the engine's Results of one command as MySQL packets: result sets, OK and ERR. */
import type { Result } from '../engine/result.js';
import { ErrorCode, Status } from './constants.js';
import type { PacketWriter } from './packet-writer.js';
import { writeBinaryResultSet, writeErr, writeOk, writeTextResultSet } from './responses.js';

/**
 * Each result in turn; all but the last carry SERVER_MORE_RESULTS_EXISTS. An error ends the
 * sequence (the engine stops at the first failing statement). `binary` is for COM_STMT_EXECUTE.
 */
export function writeResults(w: PacketWriter, results: Result[], status: number, binary = false): void {
  if (results.length === 0) {
    writeOk(w, status);
    return;
  }
  results.forEach((r, i) => {
    const more = i < results.length - 1 ? Status.MORE_RESULTS_EXISTS : 0;
    switch (r.kind) {
      case 'rows':
        if (binary) writeBinaryResultSet(w, r, status, status | more);
        else writeTextResultSet(w, r, status, status | more);
        return;
      case 'ok':
        writeOk(w, status | more, r.affected, r.lastInsertId ?? 0n, r.warning ? 1 : 0);
        return;
      case 'error':
        writeErr(w, ErrorCode.PARSE.errno, ErrorCode.PARSE.sqlState, r.message);
    }
  });
}
