/**
 * "Already gone": the one classification of answers saying the object a call names does not exist
 * (HTTP 404, or a service error such as "Unknown group id 9" / "monitor 7 not found"), and the mark
 * on results of deletes that found their object gone on a retry.
 *
 * - The client (transport.ts) counts a DELETE retried after an attempt whose answer was lost, and
 *   then answered "gone", as done: the first attempt did the work. Such a result carries only the
 *   id the caller gave (its other fields are the canonical "unknown" values) and is marked;
 *   callers test it with wasAlreadyGone(). In-memory fakes of MonitoringApi mark theirs alike.
 * - Apply counts any delete answered "gone" as done, since gone is what the plan wanted
 *   (isGoneError).
 */
import { ApiError } from './errors.js';

// "unknown" only about an id ("Unknown group id 9"): "unknown error" must not turn a refused delete
// into a done one.
const GONE_TEXT = /\b(unknown\s+(?:\w+\s+)?id|not\s*found|no such|does not exist|doesn't exist)\b/i;

/** An answer (status and the service's error text, either may be absent) saying "no such object". */
export function isGoneAnswer(status: number | null, serviceError: string | null): boolean {
  if (status === 404) return true;
  // A server failure's text ("no such table") says nothing about the object.
  if (status !== null && status >= 500) return false;
  return serviceError !== null && GONE_TEXT.test(serviceError);
}

/** A failed call whose answer said "no such object". Failures without an answer never are. */
export function isGoneError(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err.kind !== 'http' && err.kind !== 'service') return false;
  return isGoneAnswer(err.status, err.serviceError);
}

const alreadyGone = new WeakSet<object>();

export function markAlreadyGone<T extends object>(result: T): T {
  alreadyGone.add(result);
  return result;
}

export function wasAlreadyGone(result: object): boolean {
  return alreadyGone.has(result);
}
