import { describe, expect, it } from 'vitest';
import { INDEXER_USAGE } from '../../../src/indexer/indexer-args.js';
import { LOCK_FILE } from '../../../src/store/data-dir.js';

// `quarry indexer --help` said --rotate found the server by "its pid file in the data directory";
// the indexer asks the data directory's lock (dataDirHolder), and searchd's pid_file may be elsewhere.
describe('quarry indexer --help', () => {
  it('names the lock file by which --rotate finds the running server, not a pid file', () => {
    const rotate = INDEXER_USAGE.slice(INDEXER_USAGE.indexOf('--rotate  '), INDEXER_USAGE.indexOf('--data DIR'));
    expect(rotate).toContain(LOCK_FILE);
    expect(rotate).not.toContain('pid file');
  });
});
