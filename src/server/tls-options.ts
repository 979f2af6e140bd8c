/**
 * TLS from Manticore's searchd settings `ssl_cert`, `ssl_key` and `ssl_ca` (PEM files). With a
 * certificate and key, the HTTP port also speaks HTTPS and the MySQL handshake offers SSL.
 */
import { readFile } from 'node:fs/promises';
import { createSecureContext, type SecureContext } from 'node:tls';
import { SearchError } from '../util/errors.js';
import { lastValue, type ConfigSection } from './config-parser.js';

/** The context both listeners share, or undefined when the config names no certificate. */
export async function loadTlsContext(searchd: ConfigSection | undefined): Promise<SecureContext | undefined> {
  const certPath = lastValue(searchd, 'ssl_cert');
  const keyPath = lastValue(searchd, 'ssl_key');
  const caPath = lastValue(searchd, 'ssl_ca');
  if (!certPath && !keyPath) return undefined;
  if (!certPath || !keyPath) throw new SearchError('BAD_SETTING', 'ssl_cert and ssl_key must be set together');
  const read = async (setting: string, path: string) => {
    try {
      return await readFile(path);
    } catch (e) {
      throw new SearchError('BAD_SETTING', `${setting}: cannot read ${path}: ${(e as Error).message}`);
    }
  };
  const [cert, key, ca] = await Promise.all([
    read('ssl_cert', certPath), read('ssl_key', keyPath), caPath ? read('ssl_ca', caPath) : undefined,
  ]);
  try {
    return createSecureContext({ cert, key, ca });
  } catch (e) {
    throw new SearchError('BAD_SETTING', `invalid TLS certificate or key: ${(e as Error).message}`);
  }
}

/** Whether a host is reachable only from this machine. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
