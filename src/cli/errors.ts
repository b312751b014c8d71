/** Moved to src/util/errors.ts (a leaf every layer may import); this re-export goes once no importer is left. */
export { ExitCode, UserError } from '../util/errors.js';
