/**
 * Marks results of delete calls that found their object already gone on a retry: an earlier
 * attempt, whose answer was lost, did the delete. Such a result carries only the id the caller
 * gave; its other fields are the canonical "unknown" values. Implementations of MonitoringApi
 * (the HTTP client, in-memory fakes) mark such results; callers test them with wasAlreadyGone().
 */
const alreadyGone = new WeakSet<object>();

export function markAlreadyGone<T extends object>(result: T): T {
  alreadyGone.add(result);
  return result;
}

export function wasAlreadyGone(result: object): boolean {
  return alreadyGone.has(result);
}
