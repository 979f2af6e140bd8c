/** A size-limited tmpfs for the disk-full tests (mount needs root with CAP_SYS_ADMIN; CI runs as root). */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const isRoot = process.getuid?.() === 0;

/** Whether a tmpfs can be mounted here: a 1 MiB probe. */
export function canMountTmpfs(): boolean {
  if (!isRoot) return false;
  const probe = mkdtempSync(join(tmpdir(), 'quarry-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

export const TMPFS_SKIP_REASON = isRoot ? 'mount -t tmpfs failed (no CAP_SYS_ADMIN?)' : 'mounting a tmpfs needs root (CI runs as root)';

/** Mounts a tmpfs of `bytes` on a new directory; returns it. */
export function mountTmpfs(bytes: number, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir]);
  return dir;
}

export function unmountTmpfs(dir: string): void {
  execFileSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
}
