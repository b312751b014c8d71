/**
 * Base URL checks shared by the client and config: credentials travel in headers only, and plain
 * http is allowed only where nothing leaves the machine.
 */
import { ApiError } from './errors.js';

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (h === '[::1]' || h === '::1') return true;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return m !== null && m[1] === '127' && m.slice(2).every((p) => Number(p) <= 255);
}

export interface ParsedBaseUrl {
  /** scheme://host[:port] */
  origin: string;
  /** Path prefix without trailing slash ('' for none). */
  prefix: string;
  /** origin + prefix: what the client reports as its baseUrl. */
  baseUrl: string;
}

function configError(message: string): ApiError {
  return new ApiError({ kind: 'config', method: '', path: '', message });
}

/**
 * Validates a base URL. Messages never echo a URL that may carry credentials. `name` is how the
 * user gave it (an env var or option) so the message can say what to fix.
 */
export function parseBaseUrl(raw: string, name = 'the service URL'): ParsedBaseUrl {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw configError(`${name} is not a valid URL; expected e.g. https://api.knowledgefront.com`);
  }
  if (url.username !== '' || url.password !== '') {
    throw configError(
      `${name} must not contain credentials; set MONSYNC_USERNAME / MONSYNC_PASSWORD (v1) or MONSYNC_CLIENT_ID / MONSYNC_CLIENT_SECRET (v2) instead`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw configError(`${name} must use https:// (got ${url.protocol.replace(/:$/, '')})`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw configError(
      `${name} uses plain http:// to ${url.hostname}; credentials would travel unencrypted. Use https://, or http:// only to a loopback address (127.0.0.1, localhost, [::1]) such as \`monsync emulator\``,
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw configError(`${name} must not have a query or fragment`);
  }
  const prefix = url.pathname.replace(/\/+$/, '');
  // The client adds /v1/... and /v2/... itself: a URL ending in the version would double it.
  const version = /\/(v[12])$/i.exec(prefix);
  if (version) {
    // Safe to show: a URL with credentials, a query or a fragment was refused above.
    const base = url.origin + prefix.slice(0, -version[0].length);
    throw configError(`${name} ends in /${version[1]}: give the base URL only (${base}); monsync adds /v1/ and /v2/ itself`);
  }
  return { origin: url.origin, prefix, baseUrl: url.origin + prefix };
}
