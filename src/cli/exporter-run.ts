/**
 * `monsync exporter`: parse the options (every usage error before anything listens or is read),
 * serve the metrics (src/ops/exporter/server.ts), print `listening on http://HOST:PORT` on stdout
 * (the one line scripts read, as the emulator prints its own), and read each account once per
 * interval (src/ops/exporter/loop.ts over src/workflow/exporter.ts) until SIGTERM or Ctrl-C, which
 * end it within a moment with exit 0. The log (stderr) says what changed: first read, failures,
 * recovery, the configuration's problems; never a credential (util/redact.ts).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseDuration } from '../util/duration.js';
import { UsageError, UserError } from '../util/errors.js';
import { redact, registerSecret } from '../util/redact.js';
import type { AccountChoice } from '../workflow/accounts.js';
import type { CommandClient, ConnectionOptions } from '../workflow/context.js';
import type { CommandIo } from './output.js';

export interface ExporterOptions extends ConnectionOptions, AccountChoice {
  listen: string;
  interval: string;
  tokenFile?: string;
}

/** The documented default: loopback only, a port of its own (docs/exporter.md). */
export const DEFAULT_LISTEN = '127.0.0.1:9816';

/** `HOST:PORT` (`[::1]:9816` for IPv6) as typed in --listen. */
export function parseListen(value: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(value.trim());
  const port = m ? Number(m[3]) : NaN;
  const host = m ? (m[1] ?? m[2] ?? '') : '';
  if (!m || host === '' || port > 65_535) throw new UsageError(`--listen must be HOST:PORT (e.g. ${DEFAULT_LISTEN}, or 127.0.0.1:0 for a free port), got "${value}"`);
  return { host, port };
}

async function readToken(file: string, cwd: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, file), 'utf8');
  } catch (err) {
    throw new UsageError(`--token-file: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const token = text.trim();
  if (token === '' || /\s/.test(token)) throw new UsageError(`--token-file: ${file} must hold one token (no spaces), on one line`);
  return token;
}

export async function runExporter(paths: string[], opts: ExporterOptions, io: CommandIo): Promise<number> {
  const { host, port } = parseListen(opts.listen);
  const intervalMs = parseDuration(opts.interval, '--interval') * 1000;
  const token = opts.tokenFile !== undefined ? await readToken(opts.tokenFile, io.cwd) : null;
  const [{ ExporterMetrics }, { startExporterServer, isLoopback }, { runReadLoop }, { exporterReader, exporterUsesConfiguration }, { openCommand }] = await Promise.all([
    import('../ops/exporter/metrics.js'),
    import('../ops/exporter/server.js'),
    import('../ops/exporter/loop.js'),
    import('../workflow/exporter.js'),
    import('../workflow/context.js'),
  ]);
  registerSecret(token ?? undefined);
  // PATH... is optional: without it the accounts are looked for in monsync.yaml, as status does.
  const { contexts } = await openCommand({ io, paths, connection: opts, choice: opts });
  const accounts = contexts.some((c) => c.account !== undefined);
  const metrics = new ExporterMetrics({ accounts, configuration: contexts.some((c) => exporterUsesConfiguration(c, paths)) });
  const log = (line: string) => io.err(`${new Date(io.now()).toISOString()} ${redact(line)}\n`);
  const clients: CommandClient[] = [];
  for (const ctx of contexts) clients.push(await ctx.connect({ onRequest: (e) => metrics.request(e.status, ctx.account?.name) }));

  const read = new Set<number>();
  const server = await startExporterServer({ host, port, metrics, token, ready: () => read.size === contexts.length }).catch((err: NodeJS.ErrnoException) => {
    throw new UserError(`--listen ${opts.listen}: cannot listen there: ${err.code ?? err.message}`);
  });
  io.out(`listening on ${server.url}\n`);
  if (!isLoopback(host) && token === null) log(`listening beyond loopback (${host}) without --token-file: anyone who reaches it reads the metrics`);

  const stop = new AbortController();
  const release = io.interrupts?.((signal) => {
    log(`${signal}: stopping`);
    stop.abort();
  });
  try {
    await Promise.all(
      contexts.map((ctx, i) => {
        const reader = exporterReader(ctx, { api: clients[i]!, withConfiguration: exporterUsesConfiguration(ctx, paths), log: (line) => log(ctx.account ? `account ${ctx.account.name}: ${line}` : line) });
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
        });
      }),
    );
  } finally {
    release?.();
    await server.close();
    // Reads in flight are abandoned: the process ends now, not when their answers arrive.
    await Promise.all(clients.map((c) => c.destroy().catch(() => undefined)));
  }
  return 0;
}
