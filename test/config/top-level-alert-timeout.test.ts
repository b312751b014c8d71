/**
 * An alert's timeout is required for SMTP alerts only (README; the service accepts an HTTP or Ping
 * monitor's alert without one). validate cannot know the type of the monitor a top-level alert names,
 * so it accepts a top-level alert without a timeout, and plan, which reads the account, asks for one
 * when that monitor is an SMTP monitor (test/plan/semantics.test.ts). Alerts under `monitors:` are
 * on SMTP monitors by construction: validate still requires their timeout (issue 23, 6b).
 */
import { describe, expect, it } from 'vitest';
import { brief, diagnosticsOf, loadFiles, monitorYaml, stateOf } from './helpers.js';

describe('the timeout of an alert', () => {
  it('may be left out of a top-level alert (its monitor may be of another type): the state holds timeout null', async () => {
    const result = await loadFiles({ 'a.yaml': 'version: 1\nalerts:\n  - { monitor: www-http, subject_init: www down, subject_term: www up }\n' });
    expect(stateOf(result).alerts).toMatchObject([{ monitor: 'www-http', subject_init: 'www down', timeout: null }]);
  });

  it('is still required on an alert under monitors: (an SMTP monitor)', async () => {
    const result = await loadFiles({
      'a.yaml': `version: 1\nmonitors:\n${monitorYaml('mx-1', '    alerts:\n      - { subject_init: down, subject_term: up }\n')}`,
    });
    expect(diagnosticsOf(result).map(brief)).toEqual([
      expect.objectContaining({ message: 'alert "down" on monitor "mx-1" has no timeout: set it here or in defaults.alert' }),
    ]);
  });
});
