/**
 * `npm run fuzz -- --inputs N --seed S [--target T[,T]] [--concurrency C]`: fuzzes a real server over
 * loopback and prints the figures; exits 1 on any finding, crash, hang, internal error or half write.
 */
import { runFuzz, verdict } from './runner.js';
import { TARGETS, type TargetName } from './targets.js';
import { writeStats } from './write-target.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const targets = arg('target', TARGETS.join(',')).split(',') as TargetName[];
for (const t of targets) {
  if (!TARGETS.includes(t)) {
    console.error(`unknown target '${t}' (targets: ${TARGETS.join(', ')})`);
    process.exit(2);
  }
}
const opts = {
  inputs: Number(arg('inputs', '1000')),
  seed: Number(arg('seed', '1')),
  targets,
  concurrency: Number(arg('concurrency', '4')),
  log: (line: string) => console.log(`[${new Date().toISOString()}] ${line}`),
};
console.log(`fuzz: ${opts.inputs} inputs per target, seed ${opts.seed}, targets ${targets.join(',')}, ${opts.concurrency} connections each`);
const report = await runFuzz(opts);
for (const f of report.findings) console.log(`FINDING ${f.target}#${f.index}: ${f.problem}\n  input: ${JSON.stringify(f.input)}`);
for (const e of report.internalErrors.slice(0, 20)) console.log(`INTERNAL ${e}`);
const total = report.targets.reduce((n, t) => n + t.inputs, 0);
const hangs = report.targets.reduce((n, t) => n + t.hangs, 0);
console.log(JSON.stringify({ ...report, findings: report.findings.length, internalErrors: report.internalErrors.length, totalInputs: total, hangs }, null, 1));
if (targets.includes('writes')) console.log(`writes: ${writeStats.refused} refused (state compared before/after), ${writeStats.applied} applied`);
const bad = verdict(report);
for (const b of bad) console.log(`FAILED ${b}`);
console.log(bad.length ? `fuzz: ${bad.length} problems` : `fuzz: clean (${total} inputs, 0 crashes, 0 hangs)`);
process.exit(bad.length ? 1 : 0);
