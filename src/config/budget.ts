/**
 * The most values (scalars, mappings, lists, and each key/value pair) a YAML document may expand
 * to once its aliases and merge keys are expanded (aliases.ts counts them; the fast path,
 * fast/parse.ts, leaves a file to the full path well before it). The largest configurations
 * written without aliases (10,000 monitors in one file, about 7 MB) come to under a million. Its
 * own module: the fast path must not load the yaml library.
 */
export const MAX_EXPANDED_NODES = 2_000_000;
