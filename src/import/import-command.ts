/** `quarry import`: the command around ImportRun (flags, target, Ctrl-C, the closing summary). */
import { asSearchError } from '../util/errors.js';
import { EngineTarget } from './engine-target.js';
import { HttpTarget } from './http-target.js';
import { IMPORT_USAGE, parseImportArgs, type ImportArgs } from './import-args.js';
import { ImportFailure, ImportRun, type ImportSummary } from './import-run.js';
import { checkInputs } from './input.js';
import { grouped, Progress, progressMode } from './progress.js';
import type { ImportTarget } from './target.js';
import { phase } from '../util/phase-trace.js';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
/** As a shell reports a process ended by SIGINT (128 + 2). */
export const EXIT_INTERRUPTED = 130;

/** Stops reading at the first SIGINT (what was read is still sent); a second one exits at once. */
export function interruptFlag(): { interrupted: () => boolean; dispose: () => void } {
  let hit = false;
  const onSigint = () => {
    if (hit) process.exit(EXIT_INTERRUPTED);
    hit = true;
  };
  process.on('SIGINT', onSigint);
  return { interrupted: () => hit, dispose: () => process.off('SIGINT', onSigint) };
}

function summaryLine(args: ImportArgs, s: ImportSummary, where: string): string {
  const secs = s.elapsedMs / 1000;
  const rate = secs > 0 ? s.imported / secs : 0;
  const parts = [`quarry import: ${grouped(s.imported)} documents into table ${args.table} (${where}) in ${secs.toFixed(1)} s, ${grouped(rate)} docs/s`];
  if (s.createdTable) parts.push('table created by auto schema');
  if (args.skipErrors) parts.push(`${grouped(s.skipped)} bad lines skipped`);
  return parts.join('; ');
}

export async function importCommand(argv: string[]): Promise<number> {
  let args: ImportArgs;
  try {
    args = parseImportArgs(argv);
  } catch (e) {
    console.error(`quarry import: ${asSearchError(e).message}\n${IMPORT_USAGE}`);
    return EXIT_USAGE;
  }
  if (args.help) {
    console.log(IMPORT_USAGE);
    return EXIT_OK;
  }
  phase('command');
  const sig = interruptFlag();
  let target: ImportTarget | undefined;
  try {
    checkInputs(args.files);
    target = args.url ? new HttpTarget(args.url) : await EngineTarget.open(args.dataDir!);
    phase('target open');
    const progress = new Progress(progressMode(args.quiet), `import ${args.table}`);
    const run = new ImportRun(target, args, progress, sig.interrupted);
    const s = await run.run();
    phase('run done');
    if (!args.quiet || s.stoppedAt || s.interrupted) console.error(summaryLine(args, s, target.where));
    if (s.stoppedAt) {
      console.error(`quarry import: stopped at ${s.stoppedAt.file} line ${s.stoppedAt.line} (use --skip-errors to go on past bad lines)`);
      return EXIT_FAILED;
    }
    if (s.interrupted) {
      console.error(`quarry import: interrupted after ${s.interrupted.file} line ${s.interrupted.line}: ${grouped(s.imported)} documents imported`);
      return EXIT_INTERRUPTED;
    }
    return EXIT_OK;
  } catch (e) {
    console.error(`quarry import: ${asSearchError(e).message}`);
    if (e instanceof ImportFailure) {
      console.error(`quarry import: stopped in ${e.file}: ${grouped(e.imported)} documents imported into table ${args.table} before it (acknowledged: they stay)`);
    }
    return EXIT_FAILED;
  } finally {
    sig.dispose();
    await target?.close();
    phase('closed');
  }
}
