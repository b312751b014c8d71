/**
 * The one masking point: every value registered here is masked in everything monsync prints or
 * writes (stdout and stderr through processIo, saved plans, report and export files, the HTTP trace,
 * errors), as CI systems mask their secrets. Credentials are registered as soon as they are read,
 * and the values of every credential variable in the environment (`*PASSWORD`, `*CLIENT_SECRET`:
 * the plain `MONSYNC_` ones and every account's, whatever its `env_prefix`) when the process starts,
 * so a secret the configuration rebuilt from harmless-looking parts (`label: mx-${PART_A}${PART_B}`)
 * is masked wherever it shows, before anything connects.
 *
 * Masked: each whole value, and a long enough start of one (at least MIN_PIECE characters and
 * two-thirds of the value): a label cut short still gives the secret away but for its last letters.
 */
const secrets = new Set<string>();

/** The shortest start of a secret that is masked on its own: shorter ones would mask ordinary words. */
const MIN_PIECE = 8;

export function registerSecret(value: string | undefined | null): void {
  // Very short values would mask ordinary words; they are not real secrets anyway.
  if (value && value.length >= 4) secrets.add(value);
}

/** The names of the credential variables monsync reads, whatever their prefix. */
const CREDENTIAL_VARIABLE = /(?:^|_)(?:PASSWORD|CLIENT_SECRET)$/;

/** Registers the value of every credential variable of `env` (called once per process, before any output). */
export function registerEnvSecrets(env: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(env)) if (CREDENTIAL_VARIABLE.test(name)) registerSecret(value);
}

/** Where `text` holds the secret or a long start of it: [from, to) ranges. */
function startsOf(text: string, secret: string, into: [number, number][]): void {
  const piece = Math.max(MIN_PIECE, Math.ceil((secret.length * 2) / 3));
  const probe = secret.length <= piece ? secret : secret.slice(0, piece);
  for (let at = text.indexOf(probe); at !== -1; at = text.indexOf(probe, at + 1)) {
    let end = at + probe.length;
    while (end - at < secret.length && text[end] === secret[end - at]) end++;
    into.push([at, end]);
  }
}

/** Whether `text` holds a registered secret, or a long start of one (what `redact` would mask of them). */
export function holdsSecret(text: string): boolean {
  const ranges: [number, number][] = [];
  for (const s of secrets) startsOf(text, s, ranges);
  return ranges.length > 0;
}

export function redact(text: string): string {
  let out = text;
  if (secrets.size > 0) {
    const ranges: [number, number][] = [];
    for (const s of secrets) startsOf(out, s, ranges);
    if (ranges.length > 0) {
      ranges.sort((a, b) => a[0] - b[0]);
      let masked = '';
      let from = 0;
      for (const [start, end] of ranges) {
        if (end <= from) continue;
        if (start >= from) masked += `${out.slice(from, start)}***`;
        from = end;
      }
      out = masked + out.slice(from);
    }
  }
  // Basic credentials embedded in a URL; bearer tokens. Looked for only where they can be: every
  // write goes through here, and the URL pattern over 5 MB of plan text cost 40 ms of CPU.
  if (out.includes('://')) out = out.replace(/(\w+:\/\/)[^/\s:@]+:[^/\s@]+@/g, '$1***@');
  if (out.includes('Bearer')) out = out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]+/g, '$1***');
  return out;
}

/** `redact` over a file written a piece at a time (a report's HTML): each piece masked on its way out. */
export function* redactEach(pieces: Iterable<string>): Generator<string> {
  for (const piece of pieces) yield redact(piece);
}
