/**
 * `monsync exporter`: every usage error before anything listens or is read, then `exporterFlow`
 * (src/workflow/exporter.ts) on the accounts chosen until SIGTERM or Ctrl-C, which end it within a
 * moment with exit 0. SIGHUP re-reads the token file, checks the web configuration and reads every
 * account (its configuration with it) at once; it never ends the process. stdout gets `listening on
 * http://HOST:PORT` (the one line scripts read, as the emulator prints its own); the log (stderr,
 * each line stamped) says what changed: first read, failures, recovery, the configuration's
 * problems; never a credential (util/redact.ts).
 */
import type { Command } from 'commander';
import { UsageError } from '../util/errors.js';
import type { AccountChoice } from '../workflow/accounts.js';
import type { ConnectionOptions } from '../workflow/context.js';
import type { Events } from '../workflow/events.js';
import { CONNECTION_ENV } from './common.js';
import { command } from './driver.js';
import type { CommandIo } from './output.js';

export interface ExporterOptions extends ConnectionOptions, AccountChoice {
  listen: string;
  interval: string;
  tokenFile?: string;
  /** `--web.config.file` (commander keeps the dots in the key). */
  'web.config.file'?: string;
}

/** The documented default: loopback only, a port of its own (docs/exporter.md). */
export const DEFAULT_LISTEN = '127.0.0.1:19816';

export function register(program: Command): void {
  command<ExporterOptions>(program, {
    name: 'exporter',
    description: 'serve the account as Prometheus metrics (round trips, alerts, pauses, maintenance, drift), read once per --interval',
    args: [
      [
        '[paths...]',
        'configuration files (YAML or JSON) or directories of them (default: monsync.yaml when there is one, else none): also export the drift (what plan would change) and maintenance windows',
      ],
    ],
    options: (cmd) =>
      cmd
        .option('--listen <host:port>', 'address to serve /, /metrics, /-/healthy and /-/ready on (127.0.0.1:0 picks a free port)', DEFAULT_LISTEN)
        .option('--interval <duration>', 'how often the account is read (90s, 5m, ...), whatever the scrape interval', '60s')
        .option('--token-file <file>', 'require `Authorization: Bearer <token>` on /metrics, the token read from this file (again on SIGHUP)')
        .option('--web.config.file <file>', "TLS and basic auth in exporter-toolkit's web configuration format, read again for every request"),
    service: true,
    help: {
      about: [
        'Prints `listening on http://HOST:PORT`, then runs until SIGTERM or Ctrl-C (exit 0); SIGHUP reads the',
        'files again and the account at once. A failed read keeps the last values with monsync_up 0 and is',
        'tried again later (docs/exporter.md).',
      ],
      examples: [
        'monsync exporter                              # 127.0.0.1:19816, and the drift of monsync.yaml if there is one',
        'monsync exporter monitoring/ --interval 2m    # the drift of monitoring/, the account read every 2 minutes',
        'monsync exporter --listen 0.0.0.0:19816 --web.config.file web.yml   # TLS and basic auth',
      ],
      env: [...CONNECTION_ENV],
    },
    run: ({ args, opts, io }) => runExporter(args, opts, io),
  });
}

/** `HOST:PORT` (`[::1]:19816` for IPv6) as typed in --listen. */
export function parseListen(value: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(value.trim());
  const port = m ? Number(m[3]) : NaN;
  const host = m ? (m[1] ?? m[2] ?? '') : '';
  if (!m || host === '' || port > 65_535) throw new UsageError(`--listen must be HOST:PORT (e.g. ${DEFAULT_LISTEN}, or 127.0.0.1:0 for a free port), got "${value}"`);
  return { host, port };
}

/** The exporter's view: the one line on stdout, the stamped log on stderr. */
function exporterLog(io: CommandIo): { events: Events; log: (line: string) => void } {
  const log = (line: string) => io.err(`${new Date(io.now()).toISOString()} ${line}\n`);
  const events: Events = (e) => {
    if (e.kind === 'listening') {
      io.out(`listening on ${e.url}\n`);
      if (e.open) log(`listening beyond loopback (${e.host}) without --token-file or basic_auth_users: anyone who reaches it reads the metrics`);
    } else if (e.kind === 'log') log(e.line);
    else if (e.kind === 'configuration-problem') {
      const who = e.account !== undefined ? `account ${e.account}: ` : '';
      for (const line of e.lines ?? ['the configuration loads and plans again']) log(`${who}${line}`);
    }
  };
  return { events, log };
}

export async function runExporter(given: string[], opts: ExporterOptions, io: CommandIo): Promise<number> {
  const { host, port } = parseListen(opts.listen);
  const [{ parseDuration }, { ExporterCredentials }, { openCommand }, { exporterFlow, exporterPaths }] = await Promise.all([
    import('../util/duration.js'),
    import('../ops/exporter/credentials.js'),
    import('../workflow/context.js'),
    import('../workflow/exporter.js'),
  ]);
  const intervalMs = parseDuration(opts.interval, '--interval') * 1000;
  // Read now: a bad token file or web configuration stops the start before anything is read or listens.
  const { credentials, web } = await ExporterCredentials.open(opts.tokenFile, opts['web.config.file'], io.cwd);
  const { events, log } = exporterLog(io);
  // From the start: a SIGHUP while the accounts are opened must not end the process either.
  const wakes = new Set<() => void>();
  const releaseHangups = io.hangups?.(() => {
    void credentials.reread(log).then((files) => {
      log(`SIGHUP: read ${[...files, 'the configuration'].join(', ')} again; reading now`);
      for (const wake of wakes) wake();
    });
  });
  const wake = (listener: () => void) => {
    wakes.add(listener);
    return () => void wakes.delete(listener);
  };
  const stop = new AbortController();
  let release: (() => void) | undefined;
  try {
    const paths = await exporterPaths(given, io.cwd);
    // Without PATH the accounts are looked for in monsync.yaml, as status does.
    const opened = await openCommand({ io, paths, connection: opts, choice: opts });
    release = io.interrupts?.((signal) => {
      log(`${signal}: stopping`);
      stop.abort();
    });
    await exporterFlow(opened, { listen: opts.listen, host, port, intervalMs, credentials, web, paths, signal: stop.signal, wake }, events);
  } finally {
    release?.();
    releaseHangups?.();
  }
  return 0;
}
