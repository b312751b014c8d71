#!/usr/bin/env node
// `npm run demo`: the whole monsync loop against the bundled emulator, no account needed.
// Starts `monsync emulator` on a free port, then runs validate, plan, apply and a final plan that
// must show no changes. The emulator is stopped however the demo ends (failure, Ctrl-C, SIGTERM).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'monsync.js');
const CONFIG = relative(process.cwd(), join(ROOT, 'examples', 'realistic')) || '.';
const USERNAME = 'demo@example.com';
const PASSWORD = 'demo-password';
const START_TIMEOUT_MS = 20_000;

const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const bold = (s) => (color ? `\x1b[1m${s}\x1b[22m` : s);
const red = (s) => (color ? `\x1b[31m${s}\x1b[39m` : s);
const green = (s) => (color ? `\x1b[32m${s}\x1b[39m` : s);

/** Child processes still running: stopped on every way out. */
const children = new Set();
let emulator = null;
let stopping = false;

function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function startEmulator() {
  return new Promise((resolve, reject) => {
    const child = track(
      spawn(process.execPath, [BIN, 'emulator', '--port', '0', '--host', '127.0.0.1'], {
        cwd: ROOT,
        env: withoutMonsyncVars(process.env),
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    emulator = child;
    let out = '';
    let err = '';
    const fail = (why) => {
      clearTimeout(timer);
      reject(new Error(`${why}${err.trim() ? `\n${err.trim()}` : ''}`));
    };
    const timer = setTimeout(() => fail(`the emulator did not report its address within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /^listening on (https?:\/\/\S+)\s*$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        // Keep draining its output so a full pipe never blocks it.
        child.stdout.resume();
        resolve({ child, url: m[1] });
      }
    });
    child.once('error', (e) => fail(`cannot start the emulator: ${e.message}`));
    child.once('exit', (code, signal) => fail(`the emulator exited before listening (${signal ?? `exit code ${code}`})`));
  });
}

/** Variables of a real account must not leak into the demo: only the emulator's are set. */
function withoutMonsyncVars(env) {
  const out = {};
  for (const [k, v] of Object.entries(env)) if (!k.startsWith('MONSYNC_')) out[k] = v;
  return out;
}

function run(args, env) {
  return new Promise((resolve) => {
    const child = track(spawn(process.execPath, [BIN, ...args], { cwd: process.cwd(), env, stdio: ['ignore', 'inherit', 'inherit'] }));
    child.once('error', (e) => {
      process.stderr.write(`cannot run monsync: ${e.message}\n`);
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 1)));
  });
}

async function stopEmulator() {
  const child = emulator;
  emulator = null;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function header(n, total, title, args) {
  process.stdout.write(`\n${bold(`==> [${n}/${total}] ${title}`)}\n${bold(`    $ monsync ${args.join(' ')}`)}\n\n`);
}

async function main() {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
    process.stderr.write('monsync is not built: run `npm ci` (or `npm run build`) first.\n');
    return 1;
  }

  process.stdout.write(bold('monsync demo: validate, plan, apply and re-plan examples/realistic against the bundled emulator\n'));
  const started = await startEmulator();
  process.stdout.write(`Emulator listening on ${started.url} (account ${USERNAME})\n`);

  const env = { ...withoutMonsyncVars(process.env), MONSYNC_URL: started.url, MONSYNC_USERNAME: USERNAME, MONSYNC_PASSWORD: PASSWORD };
  const steps = [
    { title: 'Validate the configuration (no account access)', args: ['validate', CONFIG] },
    { title: 'Plan: what would change in the account', args: ['plan', CONFIG] },
    { title: 'Apply the plan', args: ['apply', CONFIG, '--auto-approve'] },
    { title: 'Plan again: the account now matches, so no changes', args: ['plan', CONFIG, '--detailed-exitcode'], converge: true },
  ];

  for (const [i, step] of steps.entries()) {
    if (stopping) return 130;
    header(i + 1, steps.length, step.title, step.args);
    const code = await run(step.args, env);
    if (stopping) return 130;
    if (code === 0) continue;
    const why =
      step.converge && code === 2
        ? 'the final plan still has changes: apply did not converge'
        : `\`monsync ${step.args[0]}\` exited with code ${code}`;
    process.stdout.write(`\n${red(bold(`Demo failed at step ${i + 1} (${step.title}): ${why}.`))}\n`);
    return 1;
  }
  process.stdout.write(`\n${green(bold('Demo finished: the account matches examples/realistic.'))}\n`);
  return 0;
}

async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  process.stderr.write(`\n${signal}: stopping the demo and the emulator\n`);
  for (const child of children) if (child !== emulator) child.kill('SIGINT');
  await stopEmulator();
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
// Last resort (an unexpected throw): never leave an emulator behind.
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

main()
  .catch((err) => {
    process.stderr.write(`${red(`demo: ${err instanceof Error ? err.message : String(err)}`)}\n`);
    return 1;
  })
  .then(async (code) => {
    await stopEmulator();
    if (!stopping) process.exitCode = code;
  });
