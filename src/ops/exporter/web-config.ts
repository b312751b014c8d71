/**
 * `--web.config.file`: the web configuration every Prometheus exporter reads, in exporter-toolkit's
 * format (its docs/web-configuration.md): `tls_server_config` (certificate and key files, an
 * optional client CA and client authentication policy, TLS versions), `basic_auth_users` (user ->
 * bcrypt hash) and `http_server_config.headers`. As exporter-toolkit does, relative paths are read
 * from the file's directory, and the file is read again for every request (basic auth, headers)
 * and every connection (TLS): a new certificate or password needs no restart.
 *
 * The contract: a file that does not parse, or a field this format does not have or monsync does
 * not implement (`cipher_suites`, `rate_limit`, ...: a security setting silently ignored would be
 * worse than a refusal), is a UserError naming the file, line, column and field. A hash or a key
 * never appears in a message.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { SecureVersion } from 'node:tls';
import { isMap, isScalar, LineCounter, parseDocument, type Node, type Pair, type YAMLMap } from 'yaml';
import { UserError } from '../../util/errors.js';

/** exporter-toolkit's client authentication policies (Go's tls.ClientAuthType names). */
export const CLIENT_AUTH_TYPES = ['NoClientCert', 'RequestClientCert', 'RequireAnyClientCert', 'VerifyClientCertIfGiven', 'RequireAndVerifyClientCert'] as const;
export type ClientAuthType = (typeof CLIENT_AUTH_TYPES)[number];

const TLS_VERSIONS: Record<string, SecureVersion> = { TLS10: 'TLSv1', TLS11: 'TLSv1.1', TLS12: 'TLSv1.2', TLS13: 'TLSv1.3' };

/** The TLS side of a web configuration, its files read (PEM text). */
export interface TlsSettings {
  cert: string;
  key: string;
  clientCa: string | null;
  clientAuth: ClientAuthType;
  minVersion: SecureVersion;
  maxVersion: SecureVersion;
}

export interface WebConfig {
  /** null: plain HTTP. */
  tls: TlsSettings | null;
  /** User -> bcrypt hash; null: no basic authentication. */
  users: ReadonlyMap<string, string> | null;
  /** Added to every answer (`http_server_config.headers`). */
  headers: Readonly<Record<string, string>>;
}

/** A bcrypt hash as htpasswd -B and bcryptjs write it. */
const BCRYPT = /^\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{53}$/;
const HEADERS = ['Content-Security-Policy', 'X-Frame-Options', 'X-Content-Type-Options', 'X-XSS-Protection', 'Strict-Transport-Security'];
const NOT_IMPLEMENTED = new Set(['client_allowed_sans', 'cipher_suites', 'prefer_server_cipher_suites', 'curve_preferences', 'rate_limit']);

type FileReader = (path: string) => string;

class Reader {
  private readonly lines = new LineCounter();
  readonly root: Node | null;
  constructor(
    readonly file: string,
    text: string,
  ) {
    const doc = parseDocument(text, { lineCounter: this.lines, uniqueKeys: true });
    const first = doc.errors[0];
    if (first) throw new UserError(`${this.where(first.pos[0])}: not valid YAML: ${first.message.split('\n')[0]}`);
    this.root = doc.contents as Node | null;
  }

  where(offset: number | undefined): string {
    const p = this.lines.linePos(offset ?? 0);
    return `${this.file}:${p.line}:${p.col}`;
  }

  fail(node: Node | Pair | null | undefined, field: string, problem: string): never {
    const at = node && 'range' in node && node.range ? node.range[0] : node && 'key' in node && isScalar(node.key) ? node.key.range?.[0] : undefined;
    throw new UserError(`${this.where(at)}: ${field}: ${problem}`);
  }

  /** The mapping's entries by key; an unknown key is refused. */
  mapping(node: Node | null, field: string, known: readonly string[]): Map<string, { pair: Pair; value: Node | null }> {
    if (!isMap(node)) this.fail(node, field || 'the file', 'must be a mapping');
    const out = new Map<string, { pair: Pair; value: Node | null }>();
    for (const pair of (node as YAMLMap).items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      const name = field ? `${field}.${key}` : key;
      if (NOT_IMPLEMENTED.has(key)) this.fail(pair.key as Node, name, 'not supported by monsync exporter (remove it, or put a proxy in front)');
      if (!known.includes(key)) this.fail(pair.key as Node, name, `unknown field (known here: ${known.join(', ')})`);
      out.set(key, { pair, value: (pair.value as Node | null) ?? null });
    }
    return out;
  }

  string(node: Node | null, field: string): string {
    if (!isScalar(node) || typeof node.value !== 'string' || node.value === '') this.fail(node, field, 'must be a non-empty string');
    return node.value as string;
  }
}

/** Reads a file a field names, relative to the web configuration's directory. */
function readNamed(r: Reader, node: Node | null, field: string, read: FileReader): string {
  const path = resolve(dirname(r.file), r.string(node, field));
  try {
    return read(path);
  } catch (err) {
    return r.fail(node, field, `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

function tlsSettings(r: Reader, node: Node | null, read: FileReader): TlsSettings {
  const f = 'tls_server_config';
  const m = r.mapping(node, f, ['cert_file', 'key_file', 'cert', 'key', 'client_ca_file', 'client_ca', 'client_auth_type', 'min_version', 'max_version', ...NOT_IMPLEMENTED]);
  const pem = (inline: string, file: string, required: boolean): string | null => {
    const a = m.get(inline);
    const b = m.get(file);
    if (a && b) r.fail(b.pair, `${f}.${file}`, `give ${inline} or ${file}, not both`);
    if (a) return r.string(a.value, `${f}.${inline}`);
    if (b) return readNamed(r, b.value, `${f}.${file}`, read);
    if (required) r.fail(node, f, `${file} is required`);
    return null;
  };
  const cert = pem('cert', 'cert_file', true)!;
  const key = pem('key', 'key_file', true)!;
  const clientCa = pem('client_ca', 'client_ca_file', false);
  const auth = m.get('client_auth_type');
  const clientAuth = (auth ? r.string(auth.value, `${f}.client_auth_type`) : 'NoClientCert') as ClientAuthType;
  if (!CLIENT_AUTH_TYPES.includes(clientAuth)) r.fail(auth!.value, `${f}.client_auth_type`, `must be one of ${CLIENT_AUTH_TYPES.join(', ')}`);
  // As exporter-toolkit: a client CA with no policy that asks for certificates is a mistake, not a default.
  if (clientCa !== null && clientAuth === 'NoClientCert') r.fail(node, `${f}.client_ca_file`, 'a client CA is given but client_auth_type does not ask for client certificates (RequireAndVerifyClientCert)');
  if (clientCa === null && (clientAuth === 'VerifyClientCertIfGiven' || clientAuth === 'RequireAndVerifyClientCert')) {
    r.fail(auth!.value, `${f}.client_auth_type`, `${clientAuth} needs client_ca_file (the CA that signs the clients' certificates)`);
  }
  const version = (name: string, fallback: SecureVersion): SecureVersion => {
    const v = m.get(name);
    if (!v) return fallback;
    const text = r.string(v.value, `${f}.${name}`);
    return TLS_VERSIONS[text] ?? r.fail(v.value, `${f}.${name}`, `must be one of ${Object.keys(TLS_VERSIONS).join(', ')}`);
  };
  const minVersion = version('min_version', 'TLSv1.2');
  const maxVersion = version('max_version', 'TLSv1.3');
  if (minVersion > maxVersion) r.fail(m.get('max_version')?.value ?? node, `${f}.max_version`, 'is below min_version');
  return { cert, key, clientCa, clientAuth, minVersion, maxVersion };
}

function users(r: Reader, node: Node | null): Map<string, string> | null {
  if (isScalar(node) && node.value === null) return null;
  if (!isMap(node)) return r.fail(node, 'basic_auth_users', 'must be a mapping of user names to bcrypt hashes');
  const out = new Map<string, string>();
  for (const pair of node.items) {
    const user = isScalar(pair.key) ? String(pair.key.value) : '';
    const field = `basic_auth_users.${user}`;
    if (user === '' || user.includes(':')) r.fail(pair.key as Node, field, 'a user name is non-empty and has no colon');
    const hash = pair.value;
    // The hash is never echoed: it is a secret in exporter-toolkit's format.
    if (!isScalar(hash) || typeof hash.value !== 'string' || !BCRYPT.test(hash.value)) r.fail((hash as Node) ?? pair, field, 'must be a bcrypt hash ($2y$10$... as `htpasswd -nBC 10 "" | tr -d \':\\n\'` prints it)');
    out.set(user, hash.value as string);
  }
  return out.size > 0 ? out : null;
}

function headers(r: Reader, node: Node | null): Record<string, string> {
  const m = r.mapping(node, 'http_server_config', ['headers', 'http2']);
  const http2 = m.get('http2');
  // HTTP/1.1 is served either way (Prometheus speaks both): the field is accepted, as the format has it.
  if (http2 && !(isScalar(http2.value) && typeof http2.value.value === 'boolean')) r.fail(http2.value, 'http_server_config.http2', 'must be true or false');
  const h = m.get('headers');
  if (!h) return {};
  const out: Record<string, string> = {};
  for (const [name, { value }] of r.mapping(h.value, 'http_server_config.headers', HEADERS)) out[name] = r.string(value, `http_server_config.headers.${name}`);
  return out;
}

/** The web configuration in `text`, read from `file` (messages name it; relative paths start from its directory). */
export function parseWebConfig(file: string, text: string, read: FileReader = (p) => readFileSync(p, 'utf8')): WebConfig {
  const r = new Reader(file, text);
  if (r.root === null || (isScalar(r.root) && r.root.value === null)) return { tls: null, users: null, headers: {} };
  const top = r.mapping(r.root, '', ['tls_server_config', 'basic_auth_users', 'http_server_config', 'rate_limit']);
  const tls = top.get('tls_server_config');
  const basic = top.get('basic_auth_users');
  const http = top.get('http_server_config');
  return {
    tls: tls && !(isScalar(tls.value) && tls.value.value === null) ? tlsSettings(r, tls.value, read) : null,
    users: basic ? users(r, basic.value) : null,
    headers: http ? headers(r, http.value) : {},
  };
}

function unreadable(file: string, err: unknown): UserError {
  return new UserError(`--web.config.file: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
}

/**
 * The file as a source read again at each use, with the files it names (a renewed certificate is
 * served from the next connection on), as exporter-toolkit does: a request costs the read of a few
 * small files.
 */
export class WebConfigSource {
  constructor(readonly file: string) {}

  async load(): Promise<WebConfig> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      throw unreadable(this.file, err);
    }
    return parseWebConfig(this.file, text);
  }

  /** Synchronously: what a TLS handshake needs before it goes on. */
  loadSync(): WebConfig {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      throw unreadable(this.file, err);
    }
    return parseWebConfig(this.file, text);
  }
}
