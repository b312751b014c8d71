/**
 * Where a declared account's variables come from (docs/accounts.md): `MONSYNC_<NAME>_` unless
 * `env_prefix` says otherwise, never the plain `MONSYNC_` (a leaf, so the schema's messages can
 * use it without loading the accounts reader and its YAML parser).
 */

/** The prefix `env_prefix` may not be: the plain variables no declared account reads. */
export const PLAIN_PREFIX = 'MONSYNC_';

/** `MONSYNC_<NAME>_`: the name upper-cased, `-` as `_`. */
export function defaultEnvPrefix(name: string): string {
  return `${PLAIN_PREFIX}${name.toUpperCase().replace(/-/g, '_')}_`;
}

/** Why account `name` may not have `env_prefix: MONSYNC_`, and what to do instead: validate and every command say the same. */
export function plainPrefixProblem(name: string): string {
  return `env_prefix ${PLAIN_PREFIX} would read the plain MONSYNC_URL and credentials, which a declared account never uses (docs/accounts.md): remove env_prefix (account ${name}'s own variables are ${defaultEnvPrefix(name)}URL ...) or choose another prefix`;
}
