/**
 * The bench's emulator: `monsync emulator --seed empty` in a process of its own (so its work is not
 * counted in the measured process), started on a free port. Resolves once it prints its URL.
 */
import { spawn } from 'node:child_process';

/** `bin`: the monsync executable to run; `cwd`: where to run it; `node`: the node to run it under. */
export async function startEmulatorProcess(bin, cwd = process.cwd(), node = process.execPath) {
  const child = spawn(node, [bin, 'emulator', '--port', '0', '--seed', 'empty'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise((res, rej) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const m = /listening on (\S+)/.exec(buf);
      if (m) res(m[1]);
    });
    child.on('exit', (c) => rej(new Error(`emulator exited with ${c} before listening`)));
  });
  child.stderr.resume();
  return { url, child, stop: () => child.kill('SIGTERM') };
}
