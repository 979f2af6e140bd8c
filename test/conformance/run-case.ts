// Runs one case against a live server: server_config, setup steps, request steps, comparison.
import { stringify } from 'lossless-json';
import { isSqlStep, type Case, type Step } from './cases.js';
import { compareOutcome } from './compare.js';
import type { HttpClient, Outcome } from './transport.js';

/** Defaults a case's `server_config` is restored to afterwards (conformance README). */
export const SERVER_DEFAULTS: Record<string, string> = {
  auto_schema: '1',
  not_terms_only_allowed: '0',
};

export interface CaseResult {
  id: string;
  area: string;
  pass: boolean;
  diffs: string[];
}

function runStep(client: HttpClient, step: Step): Promise<Outcome> {
  return isSqlStep(step) ? client.sql(step.sql) : client.http(step.http);
}

function settingValue(value: unknown): string {
  return typeof value === 'string' ? value : String(stringify(value));
}

async function applyServerConfig(client: HttpClient, config: Record<string, unknown>, diffs: string[]): Promise<void> {
  for (const [name, value] of Object.entries(config)) {
    const outcome = await client.sql(`SET GLOBAL ${name}=${settingValue(value)}`);
    if (outcome.kind === 'error') diffs.push(`server_config ${name}: ${outcome.error}`);
  }
}

async function restoreServerConfig(client: HttpClient, config: Record<string, unknown>): Promise<void> {
  for (const name of Object.keys(config)) {
    const value = SERVER_DEFAULTS[name];
    if (value === undefined) console.warn(`conformance: no default known for server setting ${name}`);
    else await client.sql(`SET GLOBAL ${name}=${value}`);
  }
}

/** Drops every table, so each case meets the empty server the cases are written for. */
export async function dropAllTables(client: HttpClient): Promise<void> {
  const tables = await client.sql('SHOW TABLES');
  if (tables.kind !== 'rows') return;
  for (const [name] of tables.rows) {
    if (name) await client.sql(`DROP TABLE IF EXISTS ${name}`);
  }
}

/**
 * Runs `c` on an emptied server. Setup steps may fail (the README says failed setup is not part of the case); the last
 * request step's outcome is compared. A transport fault fails the case with its message.
 */
export async function runCase(client: HttpClient, c: Case): Promise<CaseResult> {
  const diffs: string[] = [];
  const config = c.server_config ?? {};
  try {
    await dropAllTables(client);
    await applyServerConfig(client, config, diffs);
    for (const step of c.setup) await runStep(client, step);
    let outcome: Outcome | undefined;
    for (const step of c.request) outcome = await runStep(client, step);
    if (!outcome) diffs.push('case has no request step');
    else diffs.push(...compareOutcome(c, outcome));
  } catch (e) {
    diffs.push(`runner: ${(e as Error).message}`);
  } finally {
    await restoreServerConfig(client, config).catch((e: Error) => diffs.push(`restoring server_config: ${e.message}`));
  }
  return { id: c.id, area: c.area, pass: diffs.length === 0, diffs };
}
