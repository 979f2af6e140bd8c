#!/usr/bin/env node
// Runs Manticore's CLT recordings (.rec files of manticoresearch's test/clt-tests) against quarry and counts,
// per file, the steps whose output matches the recording. The recordings are read in place (a directory or
// .rec files on disk, or a path inside a git directory with --git, e.g. a bare mirror): nothing of them is
// copied into this repository. Not part of `npm test`: the recordings assume a Manticore install (searchd,
// indexer, php, its file layout), so many steps are skipped here and the figures are a guide, not a gate.
//
//   node scripts/clt-run.mjs [--git GITDIR [--rev REV]] [--diff] [--timeout S] [--json FILE] [--jobs N] [--quarry BIN] PATH...
//
// Each .rec file gets a fresh quarry server (free ports, an empty data directory) and one bash session whose
// working directory and HOME are a scratch directory. Commands have 9306/9308/9312 replaced by the server's
// ports and /tmp/ by the scratch directory's tmp/ (and the reverse in what they print), so a run touches
// nothing outside its scratch directory. Blocks are expanded in place; a step that starts or stops searchd
// restarts quarry on the same data directory. Steps that need what quarry is not (searchd, indexer, php,
// docker, ...) or write outside /tmp are skipped and counted apart.
import { spawn, execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

let QUARRY = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'quarry.js');
const args = process.argv.slice(2);
const opt = { git: null, rev: 'HEAD', diff: false, timeout: 30, json: null, jobs: 1, paths: [] };
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--git') opt.git = args[++i];
  else if (a === '--rev') opt.rev = args[++i];
  else if (a === '--diff') opt.diff = true;
  else if (a === '--timeout') opt.timeout = Number(args[++i]);
  else if (a === '--json') opt.json = args[++i];
  else if (a === '--jobs') opt.jobs = Number(args[++i]);
  else if (a === '--quarry') QUARRY = resolve(args[++i]);
  else if (a === '--help' || a === '-h') { console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 16).join('\n')); process.exit(0); }
  else opt.paths.push(a);
}
if (opt.paths.length === 0) { console.error('usage: clt-run.mjs [--git GITDIR [--rev REV]] [--diff] PATH...'); process.exit(2); }

// The recordings' file system: a checkout on disk or a git directory read with `git show`/`ls-tree`.
const src = opt.git
  ? {
      read: (p) => { try { return execFileSync('git', ['--git-dir', opt.git, 'show', `${opt.rev}:${p}`], { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'] }); } catch { return null; } },
      list: (p) => execFileSync('git', ['--git-dir', opt.git, 'ls-tree', '-r', '--name-only', opt.rev, '--', p], { encoding: 'utf8' }).split('\n').filter(Boolean),
      join: posix.join, dirname: posix.dirname,
    }
  : {
      read: (p) => (existsSync(p) ? readFileSync(p, 'utf8') : null),
      list: (p) => (statSync(p).isDirectory() ? walk(p) : [p]),
      join, dirname,
    };
function walk(d) { return readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)])); }

// CLT's %{NAME} patterns: the repository's .clt/patterns (found above the given path) over CLT's defaults.
const patterns = { NUMBER: '[0-9]+', YEAR: '[0-9]{4}', SEMVER: '[0-9]+\\.[0-9]+\\.[0-9]+', IPADDR: '[0-9]+\\.[0-9]+\\.[0-9]+\\.[0-9]+',
  PATH: '[A-Za-z0-9\\/\\.\\-\\_]+', DATE: '[0-9]{4}\\-[0-9]{2}\\-[0-9]{2}', TIME: '[0-9]{2}:[0-9]{2}:[0-9]{2}',
  DATETIME: '[0-9]{4}\\-[0-9]{2}\\-[0-9]{2}\\s[0-9]{2}:[0-9]{2}:[0-9]{2}' };
for (let d = opt.paths[0]; ; d = src.dirname(d)) {
  const text = src.read(src.join(d, '.clt', 'patterns'));
  if (text) { for (const l of text.split('\n')) { const [k, v] = l.trim().split(/\s+/); if (k && v) patterns[k] = v; } break; }
  if (d === '.' || d === '/' || d === '' || src.dirname(d) === d) break;
}

const MARK = /^––––? (input|output|comment|block: (.+?)) –––\s*$|^––– (.+) –––\s*$/;
// Steps of a .rec/.recb text as {input, output}, blocks expanded from their .recb files.
function parse(path, depth = 0) {
  const text = src.read(path);
  if (text === null) return [{ missing: path }];
  const steps = []; let cur = null; let mode = null;
  for (const line of text.split('\n')) {
    const m = MARK.exec(line);
    if (m) {
      if (m[1] === 'input') { cur = { input: [], output: [] }; steps.push(cur); mode = 'input'; }
      else if (m[1] === 'output') mode = 'output';
      else if (m[2]) {
        mode = null; cur = null;
        if (depth < 5) steps.push(...parse(src.join(src.dirname(path), m[2] + '.recb'), depth + 1));
      } else mode = null;
      continue;
    }
    if (cur && mode) cur[mode].push(line);
  }
  for (const s of steps) if (Array.isArray(s.input)) { s.input = s.input.join('\n').trim(); while (s.output.length && s.output.at(-1).trim() === '') s.output.pop(); }
  return steps;
}

// What quarry cannot stand in for, or what would write outside the scratch directory.
const SKIP = [/\b(searchd|indexer|indextool|spelldump|php|manticore-load|manticore-backup|manticore-executor|docker|apt-get|apt|yum|dpkg|systemctl|service|wget|git|kill|pkill|killall|sudo|composer|pip3?|python3?|java|kafka\S*)\b(?!['"=])/,
  /(^|[\s'"=(<>])(\/etc|\/var|\/usr\/(?!bin\/)|\/root|\/opt|\/home|\/proc|\/sys)\b/, /\$\{?HOME\b|~\//, /test\/clt-tests\/(scripts|data)\b/, /\bmanticore\.(conf|json)\b/];
const SEARCHD = /(^|[;&|(\s])searchd(?=[\s;)]|$)/m;
const skipReason = (cmd) => { const m = SKIP.map((r) => r.exec(cmd)).find(Boolean); return m ? m[0].trim() : null; };

function lineRegex(line) {
  let s = line.replace(/%\{([A-Z][A-Z_0-9]*)\}/g, (all, k) => (k in patterns ? `#!/${patterns[k]}/!#` : all));
  let out = ''; let i = 0;
  while (i < s.length) {
    const a = s.indexOf('#!/', i);
    if (a < 0) { out += esc(s.slice(i)); break; }
    const b = s.indexOf('/!#', a + 3);
    if (b < 0) { out += esc(s.slice(i)); break; }
    out += esc(s.slice(i, a)) + `(?:${s.slice(a + 3, b)})`; i = b + 3;
  }
  try { return new RegExp(`^${out}$`); } catch { return new RegExp(`^${esc(line)}$`); }
}
const esc = (t) => t.replace(/[.*+?^${}()|[\]\\\/]/g, '\\$&');
// Column widths are not compared: the recordings' mysql client (Oracle's) sizes a column by its values, where
// MariaDB's (the one here) widens every nullable column to fit NULL. Borders and cell padding are squeezed.
const squeeze = (l) => (/^\+[-+]+\+$/.test(l) ? l.replace(/-+/g, '-') : /^\|.*\|$/.test(l) ? l.replace(/ {2,}/g, ' ') : l);
function matches(expected, actual) {
  const got = actual.replace(/\s+$/, '').split('\n').map((l) => squeeze(l.replace(/\s+$/, '')));
  if (got.length === 1 && got[0] === '') got.length = 0;
  if (got.length !== expected.length) return false;
  return expected.every((e, i) => { e = e.replace(/\s+$/, ''); return lineRegex(/#!\/|%\{/.test(e) ? e : squeeze(e)).test(got[i]); });
}

function freePort() { return new Promise((r) => { const s = createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => r(p)); }); }); }

class Quarry {
  constructor(dir) { this.dir = dir; this.proc = null; }
  async start() {
    this.ports = { 9306: await freePort(), 9308: await freePort(), 9312: await freePort() };
    const p = this.ports;
    this.proc = spawn(process.execPath, [QUARRY, 'serve', '--data', join(this.dir, 'data'), '--mysql', `127.0.0.1:${p[9306]}`,
      '--http', `127.0.0.1:${p[9308]}`, '--agent', `127.0.0.1:${p[9312]}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    return new Promise((res, rej) => {
      const t = setTimeout(() => rej(new Error('quarry did not start: ' + log)), 30000);
      const on = (d) => { log += d; if (log.includes('quarry listening')) { clearTimeout(t); res(); } };
      this.proc.stdout.on('data', on); this.proc.stderr.on('data', on);
      this.proc.on('exit', (c) => { clearTimeout(t); rej(new Error(`quarry exited ${c}: ${log}`)); });
    });
  }
  kill() { this.proc?.kill('SIGKILL'); }
  async stop() {
    if (!this.proc || this.proc.exitCode !== null) return;
    const done = new Promise((r) => this.proc.once('exit', r));
    this.proc.kill('SIGTERM');
    await Promise.race([done, new Promise((r) => setTimeout(r, 15000))]);
    if (this.proc.exitCode === null) { this.proc.kill('SIGKILL'); await done; }
  }
}

// One bash for the whole file (exported variables and cd carry over, as under CLT).
class Shell {
  constructor(dir) {
    this.dir = dir;
    this.proc = spawn('bash', ['--noprofile', '--norc'], { cwd: dir, env: { ...process.env, HOME: dir, TMPDIR: join(dir, 'tmp') }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.buf = '';
    this.proc.stdout.on('data', (d) => { this.buf += d; this.wake?.(); });
    this.proc.stderr.on('data', (d) => { this.buf += d; this.wake?.(); });
  }
  run(cmd, timeoutMs) {
    const tag = `__clt_run_${Math.random().toString(36).slice(2)}__`;
    this.buf = '';
    this.proc.stdin.write(`{\n${cmd}\n} </dev/null 2>&1; echo; echo ${tag}\n`);
    return new Promise((res) => {
      const t = setTimeout(() => { this.wake = null; res({ out: this.buf, timedOut: true }); }, timeoutMs);
      this.wake = () => { const k = this.buf.indexOf(tag); if (k >= 0) { clearTimeout(t); this.wake = null; res({ out: this.buf.slice(0, k).replace(/\n\n$/, '\n').replace(/^\n$/, '') }); } };
    });
  }
  close() { try { process.kill(-this.proc.pid, 'SIGKILL'); } catch {} }
  kill() { this.close(); }
}

const live = new Set(); // servers and shells of files in flight, ended if this process is interrupted
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    for (const x of live) { x.kill(); if (x instanceof Quarry) rmSync(x.dir, { recursive: true, force: true }); }
    process.exit(130);
  });
}
async function runFile(path) {
  const dir = mkdtempSync(join(tmpdir(), 'clt-run-')); mkdirSync(join(dir, 'tmp'));
  // The recordings were made with Oracle's mysql on a terminal (boxed tables, an error printed alone); this
  // HOME's option file asks the same of MariaDB's client, which otherwise echoes the statement before an error.
  writeFileSync(join(dir, '.my.cnf'), '[mysql]\ntable\nskip-print-query-on-error\n');
  const q = new Quarry(dir); let shell = new Shell(dir); live.add(q); live.add(shell);
  const r = { file: path, matched: 0, differed: 0, skipped: 0, diffs: [] };
  try {
    const steps = parse(path);
    await q.start();
    for (const s of steps) {
      if (s.missing) { r.skipped++; continue; }
      const why = skipReason(s.input);
      // starting or stopping searchd (a block's or the file's own step) restarts quarry on the same data
      if (SEARCHD.test(s.input) && !/(^|[\s'"=(<>])\/etc\/|\b(grep|pgrep|pidof|kill|pkill)\b[^|;]*searchd/.test(s.input)) { await q.stop(); await q.start(); r.skipped++; continue; }
      if (why) { r.skipped++; continue; }
      let cmd = s.input;
      for (const [from, to] of Object.entries(q.ports)) cmd = cmd.replace(new RegExp(`(?<!\\d)${from}(?!\\d)`, 'g'), String(to)); // -P9306 too
      cmd = cmd.replace(/(^|[^\w.])\/tmp\//g, `$1${dir}/tmp/`);
      let { out, timedOut } = await shell.run(cmd, opt.timeout * 1000);
      if (timedOut) { shell.close(); live.delete(shell); shell = new Shell(dir); live.add(shell); }
      out = out.split(`${dir}/tmp/`).join('/tmp/');
      for (const [from, to] of Object.entries(q.ports)) out = out.replace(new RegExp(`(?<!\\d)${to}(?!\\d)`, 'g'), from);
      if (!timedOut && matches(s.output, out)) r.matched++;
      else { r.differed++; r.diffs.push({ input: s.input, expected: s.output.join('\n'), got: timedOut ? `(timed out) ${out}` : out }); }
    }
  } catch (e) {
    r.error = String(e.message ?? e).slice(0, 300);
  } finally {
    shell.close(); await q.stop(); live.delete(q); live.delete(shell); rmSync(dir, { recursive: true, force: true });
  }
  return r;
}

const files = opt.paths.flatMap((p) => src.list(p)).filter((f) => f.endsWith('.rec')).sort();
const results = []; let whole = 0; const tot = { matched: 0, differed: 0, skipped: 0 };
// Files run --jobs at a time (each on its own server and scratch directory); reported in file order.
const pending = files.map(() => null); let next = 0;
const worker = async () => { while (next < files.length) { const k = next++; pending[k] = await runFile(files[k]); } };
const pool = Promise.all(Array.from({ length: opt.jobs }, worker));
await pool;
for (const r of pending) {
  const f = r.file; results.push(r);
  if (r.differed === 0 && r.matched > 0 && !r.error) whole++;
  for (const k of Object.keys(tot)) tot[k] += r[k];
  console.log(`${r.differed === 0 && !r.error ? 'OK  ' : 'DIFF'} ${f}: ${r.matched} matched, ${r.differed} differed, ${r.skipped} skipped${r.error ? ' ERROR ' + r.error : ''}`);
  if (opt.diff) for (const d of r.diffs) console.log(`  $ ${d.input}\n  --- expected\n${indent(d.expected)}\n  --- got\n${indent(d.got)}`);
}
function indent(t) { return t.split('\n').map((l) => '    ' + l).join('\n'); }
console.log(`${files.length} files, ${whole} matched whole; steps: ${tot.matched} matched, ${tot.differed} differed, ${tot.skipped} skipped`);
if (opt.json) writeFileSync(opt.json, JSON.stringify(results, null, 1));
