/**
 * Last line of defence against secrets in output: every value registered here is masked in
 * anything main() prints for an error. Credentials are registered as soon as they are read.
 */
const secrets = new Set<string>();

export function registerSecret(value: string | undefined | null): void {
  // Very short values would mask ordinary words; they are not real secrets anyway.
  if (value && value.length >= 4) secrets.add(value);
}

export function redact(text: string): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join('***');
  // Basic credentials embedded in a URL.
  out = out.replace(/(\w+:\/\/)[^/\s:@]+:[^/\s@]+@/g, '$1***@');
  // Bearer tokens.
  out = out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]+/g, '$1***');
  return out;
}
