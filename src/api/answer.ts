/**
 * What an attempt came back with, read for the transport (transport.ts): the failure class of
 * whatever undici threw (retry.ts's `Failure`, with the words of the message), or an answer's
 * JSON and the service's own error text. Only error codes of transport errors reach messages.
 */
import { redact } from '../util/redact.js';
import type { ApiErrorKind } from './errors.js';
import { isObject } from './normalize.js';
import type { Failure } from './retry.js';

const MAX_SERVICE_ERROR_CHARS = 500;

export class AttemptFailure extends Error {
  constructor(
    readonly failure: Failure,
    readonly apiKind: ApiErrorKind,
    readonly detail: string,
    /** The call's deadline, not the per-attempt timeout, ended this attempt. */
    readonly atDeadline = false,
  ) {
    super(detail);
  }
}

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
const TOO_LARGE_CODE = 'UND_ERR_RES_EXCEEDED_MAX_SIZE';
/** OpenSSL's certificate verdicts and Node's TLS errors: the handshake failed, nothing was sent. */
const TLS_CODE = /^(?:ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_(?:GET|VERIFY|DECRYPT)|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$)/;

function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  const visit = (e: unknown): void => {
    if (!e || typeof e !== 'object' || seen.has(e)) return;
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    visit((e as { cause?: unknown }).cause);
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner)) inner.forEach(visit);
  };
  visit(err);
  return codes;
}

function megabytes(bytes: number): string {
  return bytes >= 1_000_000 ? `${Math.round(bytes / 1_000_000)} MB` : `${bytes} bytes`;
}

export function tooLarge(cap: number): AttemptFailure {
  return new AttemptFailure({ kind: 'too-large' }, 'malformed', `answer larger than ${megabytes(cap)}, the most monsync reads`);
}

/** What the codes of a connection that never opened mean, for a person. */
const NOT_SENT_TEXT: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** Certificates signed by a CA this machine does not know: one of its own (a proxy, `emulator --tls`) or none. */
const UNKNOWN_ISSUER = /^(?:SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER_CERT(?:_LOCALLY)?|UNABLE_TO_VERIFY_LEAF_SIGNATURE)$/;

/**
 * OpenSSL read a plain HTTP answer where a TLS record should be ("HTTP/1.1 400" is no TLS version):
 * an https:// URL to a server speaking plain HTTP, not a certificate problem.
 */
const PLAIN_HTTP = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST']);

/** Whether a TLS error code means the server answered plain HTTP; doctor says so too. */
export function isPlainHttpCode(code: string): boolean {
  return PLAIN_HTTP.has(code);
}

/** What to do about an https:// URL to a plain-HTTP server (shared with doctor's hint). */
export const PLAIN_HTTP_HINT =
  'if it serves plain HTTP, write the URL with http:// (monsync allows it only to a loopback address, such as `monsync emulator` without --tls); otherwise the port may be the wrong one';

/** What a person can do about a failed handshake, by its code. */
function tlsReason(code: string): string {
  if (isPlainHttpCode(code)) return `the server answered in plain HTTP, not TLS (${code}); ${PLAIN_HTTP_HINT}`;
  if (UNKNOWN_ISSUER.test(code)) {
    // Node reads NODE_EXTRA_CA_CERTS when it starts: one PEM file, which may hold several certificates.
    return `the certificate is not signed by a CA this machine trusts (${code}); to trust a CA of your own (a TLS-inspecting proxy, \`monsync emulator --tls\`), set NODE_EXTRA_CA_CERTS to its PEM file`;
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') return `the certificate is for another host name (${code})`;
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return `the certificate is not valid at this time (${code}); check this machine's clock`;
  return `the certificate is not trusted or does not match (${code})`;
}

/**
 * Maps what undici threw to the retry rule's failure classes. Only error codes (and the host and
 * port tried, `target`) reach messages. `fired`: this client's own timer ended the attempt;
 * `atDeadline`: that timer was the call's deadline.
 */
export function classifyTransportError(
  err: unknown,
  fired: boolean,
  atDeadline: boolean,
  timeoutMs: number,
  cap: number,
  target?: string,
): AttemptFailure {
  const timeoutText = `no answer within the timeout of ${timeoutMs} ms`;
  if (fired) return new AttemptFailure({ kind: 'timeout' }, 'timeout', atDeadline ? 'no answer' : timeoutText, atDeadline);
  const codes = errorCodes(err);
  if (codes.includes(TOO_LARGE_CODE)) return tooLarge(cap);
  const tls = codes.find((c) => TLS_CODE.test(c));
  if (tls !== undefined) {
    // Retrying cannot help: the next handshake meets the same certificate.
    return new AttemptFailure({ kind: 'tls' }, 'network', `TLS handshake${target ? ` with ${target}` : ''} failed: ${tlsReason(tls)}`);
  }
  const code = codes.find((c) => NOT_SENT_CODES.has(c) || TIMEOUT_CODES.has(c) || c === 'UND_ERR_CONNECT_TIMEOUT') ?? codes[0];
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new AttemptFailure({ kind: 'not-sent' }, 'timeout', 'connect timed out (UND_ERR_CONNECT_TIMEOUT)');
  }
  if (code !== undefined && NOT_SENT_CODES.has(code)) {
    const meaning = NOT_SENT_TEXT[code];
    return new AttemptFailure(
      { kind: 'not-sent' },
      'network',
      `could not connect${target ? ` to ${target}` : ''}${meaning ? `: ${meaning}` : ''} (${code})`,
    );
  }
  if (code !== undefined && TIMEOUT_CODES.has(code)) {
    return new AttemptFailure({ kind: 'timeout' }, 'timeout', timeoutText);
  }
  // Anything else (reset, socket closed, broken pipe) may have happened after the request was written.
  return new AttemptFailure({ kind: 'reset' }, 'network', `connection lost${code ? ` (${code})` : ''}`);
}

function cleanServiceError(s: string): string {
  const r = redact(s);
  return r.length > MAX_SERVICE_ERROR_CHARS ? `${r.slice(0, MAX_SERVICE_ERROR_CHARS)}...` : r;
}

/** The service's error text from a parsed body, if it sent one. */
export function serviceErrorOf(body: unknown): string | null {
  if (!isObject(body)) return null;
  for (const key of ['error', 'error_description', 'detail', 'message']) {
    const v = body[key];
    if (typeof v === 'string' && v !== '') return cleanServiceError(v);
  }
  const e = body['error'];
  if (e !== undefined && e !== null && e !== '') return cleanServiceError(JSON.stringify(e));
  return null;
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
