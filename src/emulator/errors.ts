/**
 * The one error type the store throws. Routes turn it into an HTTP status and the `error` field;
 * anything else escaping a handler is a bug and becomes a 500.
 */
export type StoreErrorStatus = 400 | 404 | 409;

export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly status: StoreErrorStatus,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string): StoreError => new StoreError(400, message);
export const notFound = (message: string): StoreError => new StoreError(404, message);
export const conflict = (message: string): StoreError => new StoreError(409, message);
