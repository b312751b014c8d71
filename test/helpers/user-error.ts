/** The UserError a call throws; fails the test when it throws nothing or something else. */
import { expect } from 'vitest';
import { UserError } from '../../src/util/errors.js';

export function userError(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return err as UserError;
  }
  throw new Error('expected a UserError');
}
