/**
 * `monsync exporter`: parse the options (every usage error before anything listens or is read),
 * serve the metrics (src/ops/exporter/server.ts), print `listening on http://HOST:PORT` on stdout
 * (the one line scripts read, as the emulator prints its own), and read each account once per
 * interval (src/ops/exporter/loop.ts over src/workflow/exporter.ts) until SIGTERM or Ctrl-C, which
 * end it within a moment with exit 0. SIGHUP re-reads the token file, checks the web configuration
 * and reads every account (its configuration with it) at once; it never ends the process. An
 * account that cannot connect (credentials missing) exports `monsync_up 0` and is told in the log
 * while the others run. The log (stderr) says what changed: first read, failures, recovery, the
 * configuration's problems; never a credential (util/redact.ts).
 */
import { resolve } from 'node:path';
import { ExporterCredentials } from '../ops/exporter/credentials.js';
import { parseDuration } from '../util/duration.js';
import { UsageError, UserError } from '../util/errors.js';
import { redact } from '../util/redact.js';
import type { AccountChoice } from '../workflow/accounts.js';
import type { CommandClient, ConnectionOptions } from '../workflow/context.js';
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

/** `HOST:PORT` (`[::1]:19816` for IPv6) as typed in --listen. */
export function parseListen(value: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(value.trim());
  const port = m ? Number(m[3]) : NaN;
  const host = m ? (m[1] ?? m[2] ?? '') : '';
  if (!m || host === '' || port > 65_535) throw new UsageError(`--listen must be HOST:PORT (e.g. ${DEFAULT_LISTEN}, or 127.0.0.1:0 for a free port), got "${value}"`);
  return { host, port };
}

export async function runExporter(given: string[], opts: ExporterOptions, io: CommandIo): Promise<number> {
  const { host, port } = parseListen(opts.listen);
  const intervalMs = parseDuration(opts.interval, '--interval') * 1000;
  // Read now: a bad token file or web configuration stops the start before anything is read or listens.
  const { credentials, web } = await ExporterCredentials.open(opts.tokenFile, opts['web.config.file'], io.cwd);
  const log = (line: string) => io.err(`${new Date(io.now()).toISOString()} ${redact(line)}\n`);
  // From the start: a SIGHUP while the accounts are opened must not end the process either.
  const wakes = new Set<() => void>();
  const releaseHangups = io.hangups?.(() => {
    void credentials.reread(log).then((files) => {
      log(`SIGHUP: read ${[...files, 'the configuration'].join(', ')} again; reading now`);
      for (const wake of wakes) wake();
    });
  });
  try {
    const [{ ExporterMetrics }, { startExporterServer, isLoopback }, { runReadLoop }, { exporterReader, exporterUsesConfiguration, exporterPaths }, { openCommand }] = await Promise.all([
      import('../ops/exporter/metrics.js'),
      import('../ops/exporter/server.js'),
      import('../ops/exporter/loop.js'),
      import('../workflow/exporter.js'),
      import('../workflow/context.js'),
    ]);
    const paths = await exporterPaths(given, io.cwd);
    // Without PATH the accounts are looked for in monsync.yaml, as status does.
    const { contexts } = await openCommand({ io, paths, connection: opts, choice: opts });
    const accounts = contexts.some((c) => c.account !== undefined);
    const metrics = new ExporterMetrics({ accounts, configuration: contexts.some((c) => exporterUsesConfiguration(c, paths)) });
    // An account that cannot connect (its credentials missing) exports monsync_up 0 and is told; the others run.
    const clients: (CommandClient | null)[] = [];
    for (const ctx of contexts) {
      try {
        clients.push(await ctx.connect({ onRequest: (e) => metrics.request(e.status, ctx.account?.name) }));
      } catch (err) {
        if (!(err instanceof UserError) || ctx.account === undefined) throw err;
        log(`${err.message}; exporting monsync_up 0 for it until the exporter is restarted with its credentials`);
        metrics.declareAccount(ctx.account.name);
        clients.push(null);
      }
    }
    const readable = clients.filter((c) => c !== null).length;

    const read = new Set<number>();
    const server = await startExporterServer({ host, port, metrics, token: () => credentials.token(), webConfig: credentials.webConfig, log, ready: () => read.size === readable }).catch((err: NodeJS.ErrnoException) => {
      if (err instanceof UserError) throw err;
      throw new UserError(`--listen ${opts.listen}: cannot listen there: ${err.code ?? err.message}`);
    });
    io.out(`listening on ${server.url}\n`);
    if (!isLoopback(host) && credentials.token() === null && (web?.users ?? null) === null) log(`listening beyond loopback (${host}) without --token-file or basic_auth_users: anyone who reaches it reads the metrics`);

    const stop = new AbortController();
    const release = io.interrupts?.((signal) => {
      log(`${signal}: stopping`);
      stop.abort();
    });
    try {
      await Promise.all(
        contexts.map((ctx, i) => {
          const api = clients[i];
          if (!api) return Promise.resolve();
          const reader = exporterReader(ctx, { api, withConfiguration: exporterUsesConfiguration(ctx, paths), log: (line) => log(ctx.account ? `account ${ctx.account.name}: ${line}` : line) });
          return runReadLoop({
            intervalMs,
            metrics,
            ...(ctx.account ? { account: ctx.account.name } : {}),
            read: () => reader.read(),
            log,
            describe: (err) => redact(err instanceof UserError ? [err.message, ...err.details].join('; ') : err instanceof Error ? err.message : String(err)),
            signal: stop.signal,
            onRead: (ok) => {
              if (ok) read.add(i);
            },
            wake: (listener) => {
              wakes.add(listener);
              return () => wakes.delete(listener);
            },
          });
        }),
      );
      // Every account without credentials: nothing to read, the process still serves until stopped.
      if (!stop.signal.aborted) await new Promise((resolve) => stop.signal.addEventListener('abort', resolve, { once: true }));
    } finally {
      release?.();
      await server.close();
      // Reads in flight are abandoned: the process ends now, not when their answers arrive.
      await Promise.all(clients.map((c) => c?.destroy().catch(() => undefined)));
    }
    return 0;
  } finally {
    releaseHangups?.();
  }
}
