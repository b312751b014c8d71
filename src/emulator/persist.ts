/**
 * State-file persistence. Writes are atomic (temporary file in the same directory, fsync,
 * rename) so a crash leaves either the old or the new state, never half of one; and they are
 * coalesced (one write in flight, at most one pending) so a burst of 1,000 mutations costs a
 * handful of full dumps, not 1,000.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** A state file that cannot be used; the message is meant for the user as is. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';
}

function code(err: unknown): string {
  return err && typeof err === 'object' && 'code' in err ? String((err as { code: unknown }).code) : '';
}

function reason(err: unknown): string {
  const c = code(err);
  if (c === 'ENOENT') return 'no such file or directory';
  if (c === 'EACCES' || c === 'EPERM') return 'permission denied';
  if (c === 'EISDIR') return 'it is a directory';
  if (c === 'ENOTDIR') return 'a parent is not a directory';
  return err instanceof Error ? err.message : String(err);
}

/** The parsed JSON of the state file, or undefined when there is none yet. */
export function readStateFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (code(err) === 'ENOENT') return undefined;
    throw new StateFileError(`cannot read state file ${path}: ${reason(err)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new StateFileError(
      `state file ${path} is corrupt (not valid JSON: ${err instanceof Error ? err.message : String(err)}); move it away to start afresh`,
    );
  }
}

let tmpCounter = 0;
function tmpPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${++tmpCounter}.tmp`);
}

function syncDirBestEffort(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not every platform can fsync a directory; the rename is still atomic.
  }
}

export function writeStateFileSync(path: string, data: string): void {
  const tmp = tmpPathFor(path);
  try {
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new StateFileError(`cannot write state file ${path}: ${reason(err)}`);
  }
  syncDirBestEffort(dirname(path));
}

export async function writeStateFile(path: string, data: string): Promise<void> {
  const tmp = tmpPathFor(path);
  try {
    const fh = await open(tmp, 'w', 0o600);
    try {
      await fh.writeFile(data, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw new StateFileError(`cannot write state file ${path}: ${reason(err)}`);
  }
  syncDirBestEffort(dirname(path));
}

export class StatePersister {
  private dirty = false;
  private running: Promise<void> | null = null;
  private closed = false;
  /** Full dumps written so far (tests check that bursts are coalesced). */
  writes = 0;
  lastError: Error | null = null;

  constructor(
    readonly path: string,
    private readonly snapshot: () => unknown,
    private readonly onError: (err: Error) => void = () => {},
  ) {}

  writeNow(): void {
    writeStateFileSync(this.path, JSON.stringify(this.snapshot()));
    this.writes++;
  }

  schedule(): void {
    if (this.closed) return;
    this.dirty = true;
    this.running ??= this.run();
  }

  private async run(): Promise<void> {
    // Let the current burst of synchronous mutations finish before taking a snapshot.
    await new Promise<void>((r) => setImmediate(r));
    while (this.dirty) {
      this.dirty = false;
      try {
        await writeStateFile(this.path, JSON.stringify(this.snapshot()));
        this.writes++;
        this.lastError = null;
      } catch (err) {
        this.lastError = err instanceof Error ? err : new Error(String(err));
        this.onError(this.lastError);
      }
    }
    this.running = null;
  }

  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Waits for pending writes; afterwards mutations are no longer written. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }
}
