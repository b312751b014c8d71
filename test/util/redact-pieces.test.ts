/**
 * The one masking point (src/util/redact.ts, issue 45): a registered secret is masked whole and by a
 * long enough start of it, wherever it sits in the text; credential variables are registered by
 * name, whatever their prefix.
 */
import { describe, expect, it } from 'vitest';
import { redact, redactEach, registerEnvSecrets, registerSecret } from '../../src/util/redact.js';

describe('redact', () => {
  it('masks a secret whole, and a start of two-thirds of it or more, but not a shorter start', () => {
    registerSecret('Zq8-wombat-Kestrel');
    expect(redact('label mx-Zq8-wombat-Kestrel here')).toBe('label mx-*** here');
    expect(redact('mx-Zq8-wombat-Kest.')).toBe('mx-***.');
    expect(redact('mx-Zq8-wom')).toBe('mx-Zq8-wom');
    expect(redact('a Zq8-wombat-Kestrel b Zq8-wombat-Kestrel')).toBe('a *** b ***');
  });

  it('registers the values of every PASSWORD and CLIENT_SECRET variable, any prefix, and no other', () => {
    registerEnvSecrets({ KF_PROD_PASSWORD: 'pw-from-prefix-45', MONSYNC_STAGING_CLIENT_SECRET: 'cs-from-staging-45', MONSYNC_USERNAME: 'login-not-secret-45', REGION: 'eu-west-region-45' });
    expect(redact('pw-from-prefix-45 cs-from-staging-45 login-not-secret-45 eu-west-region-45')).toBe('*** *** login-not-secret-45 eu-west-region-45');
  });

  it('masks each piece of a file written in pieces', () => {
    registerSecret('pieces-secret-45');
    expect([...redactEach(['<td>pieces-secret-45</td>', '<td>ok</td>'])]).toEqual(['<td>***</td>', '<td>ok</td>']);
  });
});
