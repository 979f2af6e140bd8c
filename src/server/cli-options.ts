/**
 * The option loop every command shares (serve, export, import, indexer, backup, restore): `--name=value`
 * or `--name value`, an empty or missing value a BAD_SETTING error naming the option, anything
 * `positional` accepts passed through.
 */
import { SearchError } from '../util/errors.js';

export const cliFail = (m: string): never => { throw new SearchError('BAD_SETTING', m); };

/** One command-line word: a positional argument, or an option whose value() takes its value. */
export type CliWord = { positional: string } | { name: string; value(): string };

export function* cliWords(argv: string[], positional: (arg: string) => boolean): Generator<CliWord> {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (positional(arg)) { yield { positional: arg }; continue; }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    yield {
      name,
      value: (): string => {
        const v = eq < 0 ? argv[++i] : arg.slice(eq + 1);
        if (v === undefined || v === '') cliFail(`option '${name}' needs a value`);
        return v!;
      },
    };
  }
}

/** `--batch`-style values: a positive integer or an error naming the option. */
export function positiveInt(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) cliFail(`${name} needs a positive integer`);
  return n;
}
