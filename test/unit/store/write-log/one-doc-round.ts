// A write-log round of generation 1 that puts one document (id = lastSeq), its op record and the sequence:
// the smallest round the log and its replay into lmdb take, shared by the write-log tests.
import { docKey, genKey, opKey, u64Bytes } from '../../../../src/store/keys.js';
import { LogDb, type LogRound } from '../../../../src/store/write-log/write-log.js';

export function oneDocRound(lastSeq: bigint, text: string): LogRound {
  return {
    gen: 1,
    lastSeq,
    puts: [
      { db: LogDb.DOCS, key: docKey(1, lastSeq), value: Buffer.from(text) },
      { db: LogDb.OPS, key: opKey(1, lastSeq), value: Buffer.from('op') },
      { db: LogDb.SEQ, key: genKey(1), value: u64Bytes(lastSeq) },
    ],
  };
}
