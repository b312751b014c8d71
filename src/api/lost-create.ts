/**
 * A create whose answer was lost is the one failure the client cannot settle alone: only the
 * caller knows how to recognise what the create would have made. settleLostCreate() asks the
 * caller's lookup and turns what it says into the create's result or its final error. The HTTP
 * client and in-memory fakes of MonitoringApi both go through it, so they keep one contract.
 */
import { ApiError, describeError } from './errors.js';

const INTERRUPTED = '; interrupted before checking whether the service created it (plan again will show it)';
const STILL_IN_FLIGHT =
  '; the service gave no answer and may still create it, so monsync did not send it again (plan again will show whether it exists)';

/**
 * No answer came and nothing proves the service is done with the request (a timeout, or a
 * connection lost after sending): a create not found yet may still be made.
 */
export function mayStillBeInFlight(err: ApiError): boolean {
  return err.kind === 'timeout' || (err.kind === 'network' && err.maybeApplied);
}

/**
 * Looks for what the failed create `err` may have made. Resolves to it when found; to undefined
 * when it is not there and the service is done with the request (sending it again is safe).
 * Throws `err`, completed with the reason, when the lookup could not run or failed, or when
 * nothing was found but the request may still be in flight.
 */
export async function settleLostCreate<T>(err: ApiError, lookup: () => Promise<T | undefined>, signal?: AbortSignal): Promise<T | undefined> {
  if (signal?.aborted) throw err.withFollowUp(INTERRUPTED, { interrupted: true });
  let found: T | undefined;
  try {
    found = await lookup();
  } catch (e) {
    const interrupted = e instanceof ApiError && e.interrupted;
    throw err.withFollowUp(`; could not check whether the service created it: ${describeError(e)} (plan again will show it)`, { interrupted });
  }
  if (found !== undefined) return found;
  if (mayStillBeInFlight(err)) throw err.withFollowUp(STILL_IN_FLIGHT);
  return undefined;
}
