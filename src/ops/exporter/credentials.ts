/**
 * The files `monsync exporter` reads its access rules from, and their re-reading on SIGHUP:
 * `--token-file` (read at start and on SIGHUP; a regular file of bounded size only, auth.ts) and
 * `--web.config.file` (read at start, then for every request and connection, web-config.ts; SIGHUP
 * only checks it and says so).
 *
 * The contract: at start, a bad file is a UserError naming it (the process does not start); on
 * SIGHUP, a bad token file is told and the last token kept (a typo must not lock Prometheus out
 * until the next restart), and a bad web configuration is told (requests get 500 until it is fixed,
 * as with exporter-toolkit). The token is registered as a secret: no log line shows it.
 */
import { resolve } from 'node:path';
import { registerSecret } from '../../util/redact.js';
import { readTokenFile } from './auth.js';
import { WebConfigSource, type WebConfig } from './web-config.js';

export class ExporterCredentials {
  private current: string | null = null;
  private readonly tokenPath: string | null;
  readonly webConfig: WebConfigSource | null;

  private constructor(
    private readonly tokenFile: string | undefined,
    webFile: string | undefined,
    cwd: string,
  ) {
    this.tokenPath = tokenFile !== undefined ? resolve(cwd, tokenFile) : null;
    this.webConfig = webFile !== undefined ? new WebConfigSource(resolve(cwd, webFile)) : null;
  }

  /** Both files read now: a bad one throws (UserError naming file and field). */
  static async open(tokenFile: string | undefined, webFile: string | undefined, cwd: string): Promise<{ credentials: ExporterCredentials; web: WebConfig | null }> {
    const c = new ExporterCredentials(tokenFile, webFile, cwd);
    if (c.tokenPath !== null) c.setToken(await readTokenFile(c.tokenPath, tokenFile));
    return { credentials: c, web: c.webConfig?.loadSync() ?? null };
  }

  /** The token `/metrics` accepts now; null: none. */
  token(): string | null {
    return this.current;
  }

  private setToken(token: string): void {
    registerSecret(token);
    this.current = token;
  }

  /** SIGHUP: the files read again, what was read (or kept) told through `log` in one line or two. */
  async reread(log: (line: string) => void): Promise<string[]> {
    const read: string[] = [];
    if (this.tokenPath !== null) {
      try {
        this.setToken(await readTokenFile(this.tokenPath, this.tokenFile));
        read.push('the token file');
      } catch (err) {
        log(`SIGHUP: ${(err as Error).message}; the last token stays`);
      }
    }
    if (this.webConfig !== null) {
      try {
        await this.webConfig.load();
        read.push('the web configuration');
      } catch (err) {
        log(`SIGHUP: ${(err as Error).message}; requests get 500 until it is fixed`);
      }
    }
    return read;
  }
}
