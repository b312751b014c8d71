/**
 * The commit a plan comment was made from, so a reviewer can tell a stale comment: `--commit`, else
 * MONSYNC_COMMIT (GitHub's pull request recipe sets the head commit: GITHUB_SHA is a merge commit
 * there), else the CI's own variable (GitLab's CI_COMMIT_SHA, GitHub's GITHUB_SHA), else
 * `git rev-parse HEAD` in the working directory. Shortened to 7 characters as git shows it; anything that is not a commit
 * id is ignored (never printed: it may come from anywhere in the environment).
 */
import { UsageError } from '../util/errors.js';

const SHA = /^[0-9a-f]{7,64}$/i;

export function shortSha(sha: string): string {
  return sha.slice(0, 7).toLowerCase();
}

export async function findCommit(given: string | undefined, env: Readonly<Record<string, string | undefined>>, cwd: string): Promise<string | undefined> {
  if (given !== undefined) {
    if (!SHA.test(given.trim())) throw new UsageError(`--commit must be a commit id (7 to 64 hexadecimal digits), got "${given}"`);
    return shortSha(given.trim());
  }
  for (const name of ['MONSYNC_COMMIT', 'CI_COMMIT_SHA', 'GITHUB_SHA']) {
    const v = env[name]?.trim();
    if (v && SHA.test(v)) return shortSha(v);
  }
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile('git', ['rev-parse', 'HEAD'], { cwd, timeout: 5000, windowsHide: true }, (err, stdout) => {
      const v = String(stdout ?? '').trim();
      resolve(!err && SHA.test(v) ? shortSha(v) : undefined);
    });
  });
}
