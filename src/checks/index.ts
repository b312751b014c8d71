/**
 * Checks that know what monitoring is for: named, each with a default severity and the reason, run
 * on the desired state (validate, plan, apply) and on the account (plan, apply). See catalogue.ts.
 */
export { CHECKS, CHECK_NAMES, isCheckName, needsOf, type Check, type CheckName } from './catalogue.js';
export { blocking, compareFindings, levelsOf, liveFindings, runChecks, type LiveHit } from './run.js';
export type { CheckLevel, Finding, FindingSeverity } from './types.js';
