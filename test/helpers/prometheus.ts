/**
 * A real Prometheus (Debian's package `prometheus`) for the e2e tests: started on a free loopback port with
 * the configuration `DIR/prometheus.yml` and the TSDB `DIR/tsdb`, and waited for until `/-/ready` answers.
 * One that does not start within 30 s, or exits first, fails the test with its log. `stop()` sends SIGTERM
 * (Prometheus flushes its TSDB then) and kills one that hangs for 15 s rather than leave it behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { closedPort } from './ports.js';

export interface TestPrometheus {
  readonly url: string;
  readonly child: ChildProcess;
  /** What Prometheus has written to stdout and stderr so far. */
  log(): string;
  stop(): Promise<void>;
}

export async function startPrometheus(dir: string): Promise<TestPrometheus> {
  const port = await closedPort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child = spawn('prometheus', [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'tsdb')}`, `--web.listen-address=127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (log += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (log += d));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(kill);
  };
  const until = Date.now() + 30_000;
  for (;;) {
    const ready = await request(`${url}/-/ready`).then(
      async (r) => (await r.body.text(), r.statusCode === 200),
      () => false,
    );
    if (ready) break;
    if (Date.now() > until || child.exitCode !== null) {
      await stop();
      throw new Error(`Prometheus did not start:\n${log}`);
    }
    await sleep(200);
  }
  return { url, child, log: () => log, stop };
}
