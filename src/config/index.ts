/** The configuration loader: YAML and JSON files (or configurations in memory) in, DesiredState (or diagnostics) out. */
export { loadConfig, type ConfigInput, type ConfigSource, type LoadOptions, type LoadResult } from './load.js';
export { formatDiagnostic, formatDiagnosticLines, formatDiagnostics, sortDiagnostics, type Diagnostic, type Severity } from './diagnostics.js';
export { DEFAULT_CONFIG_FILE, MAX_FILE_BYTES } from './read.js';
