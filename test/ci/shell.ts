/**
 * What tests running CI recipes share: a user's repository (the configuration in monitoring/, an
 * `npx` that runs a built monsync and nothing else), its PATH, and bash as a CI runner starts it.
 */
import { spawn } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A fresh repository holding `example` as monitoring/, monsync installed as `npm ci` installs it
 * (node_modules/monsync: this checkout), and `npx monsync` shimmed to `node <bin>`. Like npm, the
 * shim stays the parent of the monsync it starts (it does not exec): `kill` of npx's pid stops the
 * shim, not monsync, as it stops npm and not monsync on a runner.
 */
export async function recipeProject(example: string, bin: string, prefix = 'monsync-ci-'): Promise<string> {
  const project = await mkdtemp(join(tmpdir(), prefix));
  await cp(example, join(project, 'monitoring'), { recursive: true });
  await mkdir(join(project, '.bin'));
  await mkdir(join(project, 'node_modules'));
  await symlink(dirname(dirname(bin)), join(project, 'node_modules', 'monsync'), 'dir');
  const npx = join(project, '.bin', 'npx');
  await writeFile(npx, `#!/bin/sh\n[ "$1" = monsync ] || { echo "npx shim: only monsync" >&2; exit 127; }\nshift\n"${process.execPath}" "${bin}" "$@"\n`);
  await chmod(npx, 0o755);
  return project;
}

/** `env` with the project's shim first on PATH, then this node. */
export function withShim(project: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, PATH: `${join(project, '.bin')}:${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
}

/** `bash <flags> -c script` in `cwd`; never rejects for a non-zero exit. */
export function bash(script: string, cwd: string, env: NodeJS.ProcessEnv, flags: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [...flags, '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
