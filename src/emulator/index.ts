/**
 * Programmatic entry point: startEmulator() builds the store, loads or seeds the state, and
 * serves the API on node:http. Used by `monsync emulator` and by the tests.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { DEFAULT_CREDENTIALS, TokenService, type Credentials } from './auth.js';
import { EmulatorClock } from './clock.js';
import { buildControlRouter } from './control.js';
import { FaultInjector } from './faults.js';
import { createRequestHandler } from './http.js';
import { StateFileError, StatePersister, readStateFile } from './persist.js';
import { RequestLog, type Exchange } from './request-log.js';
import { buildApiRouter } from './routes.js';
import { applySeed } from './seed.js';
import { EmulatorStore, type SeedBody, type SeedName } from './store/index.js';
import type { TlsMaterial } from './tls.js';

export { DEFAULT_CREDENTIALS, type Credentials } from './auth.js';
export type { TlsMaterial } from './tls.js';
export { StateFileError } from './persist.js';
export type { Exchange } from './request-log.js';
export { EmulatorStore, type SeedBody, type SeedName } from './store/index.js';

export interface EmulatorOptions {
  host?: string;
  port?: number;
  statePath?: string;
  /** Initial data when there is no state file yet (and for reset without a seed name). */
  seed?: SeedName;
  /**
   * An account to start from instead (a replica: `monsync emulator --clone-from`), as the seed of
   * the control API takes it, ids given. It replaces what a state file held (the file then keeps
   * the replica), and a reset without a seed name returns to it.
   */
  account?: SeedBody;
  credentials?: { v1?: Credentials['v1']; v2?: Credentials['v2'] };
  /** Seed of the simulated test results (default "monsync"); reset returns to it. */
  simSeed?: string | number;
  /** Share of simulated tests failing at random, 0..1 (default 0.01). */
  failureRate?: number;
  /** Called when a background state write fails (the emulator keeps serving). */
  onPersistError?: (err: Error) => void;
  /**
   * Serve HTTPS: with certificates made at start (`true`: a CA and a server certificate for the
   * host, src/emulator/tls.ts) or the ones given.
   */
  tls?: true | TlsMaterial;
  /** HTTPS: called when a client's TLS handshake fails (a client that does not trust the CA). */
  onTlsError?: (err: Error) => void;
  /** Told every /v1 and /v2 call with its answer (tests check answers against schemas/openapi.json). */
  onExchange?: (exchange: Exchange) => void;
}

export interface RunningEmulator {
  url: string;
  host: string;
  port: number;
  store: EmulatorStore;
  /** Present with statePath. */
  persister: StatePersister | null;
  /** With `tls`: the PEM certificate of the CA a client must trust; null over plain HTTP. */
  ca: string | null;
  close(): Promise<void>;
}

/** Start failures the user can act on (port in use, bad host); messages are meant for them. */
export class EmulatorStartError extends Error {
  override readonly name = 'EmulatorStartError';
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      const why =
        err.code === 'EADDRINUSE'
          ? 'the address is already in use'
          : err.code === 'EACCES'
            ? 'permission denied'
            : err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND'
              ? 'no such local address'
              : err.message;
      reject(new EmulatorStartError(`cannot listen on ${host}:${port}: ${why}`));
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = opts.host ?? '127.0.0.1';
  const port = opts.port ?? 0;
  const seed: SeedName = opts.seed ?? 'default';
  const credentials: Credentials = {
    v1: opts.credentials?.v1 ?? DEFAULT_CREDENTIALS.v1,
    v2: opts.credentials?.v2 ?? DEFAULT_CREDENTIALS.v2,
  };
  const clock = new EmulatorClock();
  const store = new EmulatorStore(clock, {
    ...(opts.simSeed !== undefined && { simSeed: opts.simSeed }),
    ...(opts.failureRate !== undefined && { failureRate: opts.failureRate }),
  });

  const account = opts.account ?? null;
  const initial = (): void => {
    if (account === null) applySeed(store, seed);
    else {
      try {
        store.seed(structuredClone(account));
      } catch (err) {
        throw new EmulatorStartError(`the account to start from is not usable: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  };

  let persister: StatePersister | null = null;
  if (opts.statePath) {
    const path = opts.statePath;
    const saved = account === null ? readStateFile(path) : undefined;
    if (saved === undefined) initial();
    else {
      try {
        store.load(saved);
      } catch (err) {
        throw new StateFileError(
          `state file ${path} is not a usable emulator state: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    persister = new StatePersister(path, () => store.snapshot(), opts.onPersistError);
    // Written at once so an unwritable location fails the start, not a later request.
    persister.writeNow();
    const p = persister;
    store.onChange(() => p.schedule());
  } else {
    initial();
  }

  const runtime = {
    store,
    clock,
    tokens: new TokenService(clock, credentials),
    faults: new FaultInjector(() => clock.nowMs()),
    log: new RequestLog(),
    credentials,
    apiRouter: buildApiRouter(),
    controlRouter: buildControlRouter(),
    defaultSeed: () => seed,
    initialAccount: account,
    onExchange: opts.onExchange,
  };
  const material = opts.tls === true ? await (await import('./tls.js')).makeTlsMaterial(host) : (opts.tls ?? null);
  const handler = createRequestHandler(runtime);
  const server = material ? createHttpsServer({ key: material.key, cert: material.cert }, handler) : createServer(handler);
  if (material) server.on('tlsClientError', (err: Error) => opts.onTlsError?.(err));
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  await listen(server, port, host);
  const actualPort = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | null = null;
  return {
    url: `${material ? 'https' : 'http'}://${urlHost}:${actualPort}`,
    host,
    port: actualPort,
    store,
    persister,
    ca: material?.ca ?? null,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        if (persister) await persister.close();
      })();
      return closing;
    },
  };
}
