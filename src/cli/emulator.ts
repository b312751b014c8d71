/**
 * `monsync emulator`: runs the emulator in the foreground until SIGINT or SIGTERM (through
 * `CommandIo.interrupts`, the one place signals are handled). STDOUT gets exactly one line,
 * `listening on <url>`, so scripts can read the address; everything meant for people goes to STDERR.
 * `--clone-from URL` starts it with a copy of an account, read through the command context
 * (src/workflow/clone.ts: GET requests only).
 */
import type { Command } from 'commander';
import { UsageError, UserError } from '../util/errors.js';
import { command } from './driver.js';
import type { CommandIo } from './output.js';
import type { AccountCopy } from '../ops/clone.js';

export function register(program: Command): void {
  command<EmulatorCommandOptions>(program, {
    name: 'emulator',
    description: 'run the bundled emulator of the monitoring service (for demos, tests and CI dry runs)',
    options: (cmd) =>
      cmd
        .option('--port <n>', 'port to listen on (0 picks a free one)', '8181')
        .option('--host <host>', 'address to listen on', '127.0.0.1')
        .option('--state <file>', 'persist state to this JSON file (atomic writes; a restart keeps everything)')
        .option('--seed <name>', 'initial data when the state is new: default or empty', 'default')
        .option('--sim-seed <seed>', 'seed of the simulated test results (same seed, same results)')
        .option('--failure-rate <rate>', 'share of simulated tests that fail on their own, 0 to 1 (default 0.01)')
        .option(
          '--clone-from <url>',
          'start with a copy of the account at this URL (MONSYNC_USERNAME / MONSYNC_PASSWORD; only read there), to rehearse an apply; with --state the copy is kept there',
        )
        .option('--tls', 'serve HTTPS with a certificate signed by a CA made at start (its file is printed: trust it with NODE_EXTRA_CA_CERTS)')
        .option('--tls-ca-file <file>', 'with --tls: write the CA certificate to this file (default: in a new temporary directory)'),
    help: {
      examples: [
        'monsync emulator --port 0 --seed empty     # prints the URL it listens on, then serves an empty account',
        'monsync emulator --state emulator.json     # keeps the account across restarts',
        'monsync emulator --tls --tls-ca-file ca.pem  # HTTPS; then NODE_EXTRA_CA_CERTS=ca.pem monsync plan',
      ],
      env: ['MONSYNC_USERNAME, MONSYNC_PASSWORD', 'NODE_EXTRA_CA_CERTS'],
    },
    run: ({ opts, io }) => runEmulatorCommand(opts, io),
  });
}

export interface EmulatorCommandOptions {
  port: string;
  host: string;
  state?: string;
  seed: string;
  simSeed?: string;
  failureRate?: string;
  /** Start with a copy of the account at this URL (read with the usual credentials, read-only). */
  cloneFrom?: string;
  /** Serve HTTPS with a certificate made at start. */
  tls?: boolean;
  /** Where to write the CA certificate (default: in a new temporary directory). */
  tlsCaFile?: string;
}

/** Writes the CA a client must trust; the path, absolute. */
async function writeCaFile(ca: string, path: string | undefined): Promise<string> {
  const [{ mkdtemp, writeFile }, { tmpdir }, { join, resolve }] = await Promise.all([import('node:fs/promises'), import('node:os'), import('node:path')]);
  const file = path !== undefined ? resolve(path) : join(await mkdtemp(join(tmpdir(), 'monsync-emulator-')), 'ca.pem');
  try {
    await writeFile(file, ca, 'utf8');
  } catch (err) {
    throw new UserError(`cannot write the CA certificate to ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  return file;
}

function parseFailureRate(v: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new UsageError(`--failure-rate must be a number from 0 to 1, got "${v}"`);
  }
  return n;
}

function parsePort(v: string): number {
  if (!/^\d{1,5}$/.test(v.trim()) || Number(v) > 65535) {
    throw new UsageError(`--port must be a number from 0 to 65535 (0 picks a free port), got "${v}"`);
  }
  return Number(v);
}

/** Reads the account at `url` with the usual credentials: GET requests only, said on stderr. */
async function cloneAccount(url: string, io: CommandIo): Promise<{ copy: AccountCopy; source: string }> {
  const [{ commandContext }, { describeCopy }, { readAccountCopy }, { plural }] = await Promise.all([
    import('../workflow/context.js'),
    import('../ops/clone.js'),
    import('../workflow/clone.js'),
    import('../util/plural.js'),
  ]);
  const read = await readAccountCopy(commandContext(io, [], { url }));
  io.err(`monsync emulator: copied ${read.source}: ${describeCopy(read.copy)} (${plural(read.requests, 'read request')} in ${read.ms} ms; nothing was written there)\n`);
  return { copy: read.copy, source: read.source };
}

export async function runEmulatorCommand(opts: EmulatorCommandOptions, io: CommandIo): Promise<number> {
  const [{ DEFAULT_CREDENTIALS, EmulatorStartError, StateFileError, startEmulator }, { isSeedName }] = await Promise.all([import('../emulator/index.js'), import('../emulator/seed.js')]);
  const port = parsePort(opts.port);
  if (!isSeedName(opts.seed)) throw new UsageError(`--seed must be default or empty, got "${opts.seed}"`);
  if (opts.host.trim() === '') throw new UsageError('--host must not be empty');
  const failureRate = opts.failureRate === undefined ? undefined : parseFailureRate(opts.failureRate);
  if (opts.tlsCaFile !== undefined && !opts.tls) throw new UsageError('--tls-ca-file needs --tls');
  const account = opts.cloneFrom === undefined ? undefined : await cloneAccount(opts.cloneFrom, io);

  let emu;
  let caFile: string | undefined;
  try {
    emu = await startEmulator({
      host: opts.host,
      port,
      seed: opts.seed,
      ...(opts.state !== undefined && { statePath: opts.state }),
      ...(opts.simSeed !== undefined && { simSeed: opts.simSeed }),
      ...(failureRate !== undefined && { failureRate }),
      ...(account !== undefined && { account: account.copy }),
      onPersistError: (err) => io.err(`monsync emulator: ${err.message}\n`),
      ...(opts.tls && {
        tls: true as const,
        onTlsError: (err: Error) => io.err(`monsync emulator: a client's TLS handshake failed (${err.message.trim()}); does it trust the CA in ${caFile ?? 'the CA file'}?\n`),
      }),
    });
  } catch (err) {
    if (err instanceof StateFileError || err instanceof EmulatorStartError) throw new UserError(err.message);
    throw err;
  }

  if (emu.ca !== null) caFile = await writeCaFile(emu.ca, opts.tlsCaFile);
  const { renderEmulatorBanner } = await import('../render/emulator.js');
  // Listening for SIGINT and SIGTERM before saying where it listens: a script may stop it at once.
  const stopped = new Promise<string>((resolve) => {
    const release = io.interrupts?.((s) => {
      release?.();
      resolve(s);
    });
  });
  io.out(`listening on ${emu.url}\n`);
  io.err(
    renderEmulatorBanner({
      url: emu.url,
      ...(account && { source: account.source }),
      ...(opts.state !== undefined && { state: opts.state }),
      ...(caFile !== undefined && { caFile }),
      ...DEFAULT_CREDENTIALS,
    }),
  );

  const signal = await stopped;
  io.err(`monsync emulator: ${signal}, stopping${opts.state ? ' (flushing state)' : ''}\n`);
  try {
    await emu.close();
    return 0;
  } catch (err) {
    io.err(`monsync emulator: error while stopping: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
