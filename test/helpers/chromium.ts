/**
 * Headless Chromium for the tests that look at a page as a person would (test/docs-ui/). The flags
 * keep it off the network (this machine has none but the package registries: background
 * networking, component updates and sync would each try); every run gets a profile of its own,
 * removed afterwards.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);

export interface ChromiumRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs Chromium headless with `args` after the common flags; rejects when it takes longer than `timeoutMs`. */
export function runChromium(args: string[], { timeoutMs = 60_000, virtualTimeMs = 10_000 } = {}): Promise<ChromiumRun> {
  const profile = mkdtempSync(join(tmpdir(), 'monsync-chromium-'));
  const child = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
      `--virtual-time-budget=${virtualTimeMs}`,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`chromium did not finish within ${timeoutMs} ms; stderr:\n${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      rmSync(profile, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    });
  });
}
