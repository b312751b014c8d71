/**
 * The line apply prints for a change that failed after retries names the number of attempts once
 * (issue 23, item 6): "failed after 5 attempts: ... (5 attempts)" said it twice, because the
 * client's message for a network failure carried the count the apply line already states.
 */
import { describe, expect, it } from 'vitest';
import { MonitoringClient } from '../../src/api/client.js';
import { executePlan } from '../../src/apply/execute.js';
import { renderFinishedLine } from '../../src/render/apply-text.js';
import { deleteChange, makePlan, OWNER } from './plan-builder.js';
import { closedPort } from '../helpers/ports.js';


describe('a change that failed after retries', () => {
  it('says how many attempts it took once, in the apply line; the client error alone still says it', async () => {
    const api = new MonitoringClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      username: 'u@example.com',
      password: 'pw',
      maxRetries: 4,
      sleep: async () => {},
    });
    try {
      const result = await executePlan(makePlan([deleteChange('monitor', 'mx-legacy', '40001')]), api, { parallelism: 1, owner: OWNER });
      const r = result.results[0]!;
      expect(r.status).toBe('failed');
      expect(r.attempts).toBe(5);
      const line = renderFinishedLine(r);
      expect(line).toMatch(/^ {2}x monitor "mx-legacy" failed after 5 attempts: .*connection refused.* \(DELETE \/v1\/Config\/Monitor\/40001\/\)$/);
      expect(line.match(/attempts/g)).toHaveLength(1);
    } finally {
      await api.destroy?.();
    }
  });
});
