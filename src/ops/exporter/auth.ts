/**
 * Who may read `/metrics` (and the landing page): the bearer token of `--token-file`, the users of
 * the web configuration's `basic_auth_users` (bcrypt hashes), either when both are set; anyone
 * when neither is. The scheme of `Authorization` is case-insensitive (RFC 9110 11.1): `bearer`,
 * `BEARER` and `Basic` all count.
 *
 * Comparisons take the same time whatever was sent: the token through hashes of equal length, an
 * unknown user against a hash all the same. A bcrypt check costs tens of milliseconds, so its
 * outcome is kept per (user, hash, password) digest, as exporter-toolkit keeps it: a scraper
 * sending the same credentials every 15 s pays once.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import bcrypt from 'bcryptjs';
import { UsageError, UserError } from '../../util/errors.js';

/** A token file is one token on one line: more than this is not a token file. */
export const MAX_TOKEN_FILE_BYTES = 4096;

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/**
 * The token in `path`: a regular file (never a device, a FIFO or a directory, which would hang or
 * fill memory) of at most MAX_TOKEN_FILE_BYTES, holding one token without spaces.
 */
export async function readTokenFile(path: string, shown = path): Promise<string> {
  const problem = (what: string) => new UsageError(`--token-file: ${shown} ${what}`);
  let text: string;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer before fstat can refuse it.
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw problem('is not a regular file (one token on one line is expected)');
      if (stat.size > MAX_TOKEN_FILE_BYTES) throw problem(`is ${stat.size} bytes: a token file holds one token (at most ${MAX_TOKEN_FILE_BYTES} bytes)`);
      const buffer = Buffer.alloc(MAX_TOKEN_FILE_BYTES + 1);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      if (bytesRead > MAX_TOKEN_FILE_BYTES) throw problem(`holds more than ${MAX_TOKEN_FILE_BYTES} bytes`);
      text = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UsageError(`--token-file: cannot read ${shown}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const token = text.trim();
  if (token === '' || /\s/.test(token)) throw problem('must hold one token (no spaces), on one line');
  return token;
}

/** `Authorization`'s scheme (lower case) and its credentials, or null. */
export function authorization(header: string | undefined): { scheme: string; credentials: string } | null {
  const m = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*) +(\S+) *$/.exec(header ?? '');
  return m ? { scheme: m[1]!.toLowerCase(), credentials: m[2]! } : null;
}

/** Whether `credentials` is the token, in constant time. */
export function tokenMatches(credentials: string, token: string): boolean {
  return timingSafeEqual(digest(credentials), digest(token));
}

/** A hash no password matches, checked for unknown users so that they take as long as known ones. */
const NOBODY = '$2a$10$' + '.'.repeat(53);

/** Basic authentication against bcrypt hashes, outcomes kept (module docblock). */
export class BasicAuthChecker {
  private readonly outcomes = new Map<string, boolean>();
  private static readonly MAX_KEPT = 1024;

  async check(credentials: string, users: ReadonlyMap<string, string>): Promise<boolean> {
    const decoded = Buffer.from(credentials, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return false;
    const user = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const hash = users.get(user);
    const key = digest(`${user}\0${hash ?? NOBODY}\0${password}`).toString('base64');
    const known = this.outcomes.get(key);
    if (known !== undefined) return known && hash !== undefined;
    const ok = await bcrypt.compare(password, hash ?? NOBODY);
    if (this.outcomes.size >= BasicAuthChecker.MAX_KEPT) this.outcomes.clear();
    this.outcomes.set(key, ok);
    return ok && hash !== undefined;
  }
}
