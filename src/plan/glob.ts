/** Moved to src/util/glob.ts (config, plan and export all match globs); this re-export goes once no importer is left. */
export { globMatch, globToRegExp, matchesAny } from '../util/glob.js';
