/**
 * A block of 150 loopback ports below the ephemeral range, held for one test cluster. Test files run
 * side by side in several workers, and each cluster needs fixed ports (node names are addresses that
 * must survive a restart), so a random pick alone collided now and then (EADDRINUSE in CI). A block is
 * claimed by creating its directory under the temp folder (atomic across processes, the owner's pid
 * inside so a crashed run's claim is taken over), then every port it will use is bound once to check
 * nothing outside the tests holds it.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLAIMS = join(tmpdir(), 'quarry-test-port-blocks');

export interface PortBlock {
  base: number;
  release(): void;
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

/** Claims `${CLAIMS}/${base}`, taking over a claim whose owner process is gone. */
function claim(base: number): boolean {
  const dir = join(CLAIMS, String(base));
  mkdirSync(CLAIMS, { recursive: true });
  try {
    mkdirSync(dir);
  } catch {
    let owner = 0;
    try { owner = Number(readFileSync(join(dir, 'pid'), 'utf8')); } catch { return false; } // being written
    if (!owner || alive(owner)) return false;
    rmSync(dir, { recursive: true, force: true });
    try { mkdirSync(dir); } catch { return false; }
  }
  writeFileSync(join(dir, 'pid'), String(process.pid));
  return true;
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A claimed block whose ports at the given offsets from its base are all free now. */
export async function claimPortBlock(offsets: number[]): Promise<PortBlock> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 80) * 150; // 20000..31850: below the ephemeral range (32768+)
    if (!claim(base)) continue;
    const release = () => rmSync(join(CLAIMS, String(base)), { recursive: true, force: true });
    const free = await Promise.all(offsets.map((o) => bindable(base + o)));
    if (free.every(Boolean)) return { base, release };
    release();
  }
  throw new Error('no free block of test ports below 32768');
}
