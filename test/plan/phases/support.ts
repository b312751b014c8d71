/** A PlanContext for a desired and live state, built as diff() builds it, for testing one phase at a time. */
import type { DesiredState } from '../../../src/model/desired.js';
import type { LiveState } from '../../../src/model/live.js';
import { PlanContext } from '../../../src/plan/phases/context.js';
import { applyIgnore } from '../../../src/plan/phases/ignore.js';

export function contextFor(desired: DesiredState, live: LiveState, prune = desired.settings.prune): PlanContext {
  const problems: string[] = [];
  const seen = applyIgnore(desired, live, (msg) => problems.push(msg));
  return new PlanContext(desired, live, seen, { owner: desired.settings.owner, ignore: desired.settings.ignore, prune }, problems);
}
