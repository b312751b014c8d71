/**
 * /v2/docs in a real browser: headless Chromium loads the page from the emulator, runs Swagger UI
 * (served from node_modules, nothing from outside: every request of the page is to the emulator) and
 * the rendered DOM lists the operations.
 *
 * Needs /usr/bin/chromium (Debian package `chromium`; .ci/run installs it). Under CI a missing
 * browser fails this test; locally the test is skipped with the reason.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH } from '../../src/emulator/docs.js';
import { CHROMIUM, chromiumAvailable, openPage } from '../helpers/chromium.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

const available = chromiumAvailable;
const inCi = Boolean(process.env.CI);

describe('the interactive API documentation in headless Chromium', () => {
  if (!available && inCi) {
    it('needs Chromium', () => {
      expect.fail(
        `${CHROMIUM} not found: install the Debian package (apt-get install -y chromium; .ci/run does this before npm test) or set CHROMIUM_PATH`,
      );
    });
    return;
  }

  let emu: TestEmulator;
  beforeAll(async () => {
    if (available) emu = await startTestEmulator({ seed: 'empty' });
  });
  afterAll(async () => {
    await emu?.close();
  });

  it.skipIf(!available)(`lists every operation of schemas/openapi.json${available ? '' : ` (skipped: ${CHROMIUM} not found)`}`, { timeout: 90_000 }, async () => {
    const page = await openPage(`${emu.url}/v2/docs`);
    let stdout: string;
    try {
      // Swagger UI fetches the document and renders it after the load event: wait for its operations.
      await page.waitFor(`document.querySelectorAll('.opblock').length > 30`, 'Swagger UI rendering the operations');
      stdout = await page.dom();
      // Everything the page asked for came from the emulator (Swagger UI is served from node_modules).
      expect(page.requests().filter((r) => !r.startsWith(`GET ${emu.url}/`))).toEqual([]);
    } finally {
      await page.close();
    }
    // Swagger UI rendered, not just the static page.
    expect(stdout).toContain('class="swagger-ui"');
    expect(stdout).toContain('Monitoring Service API');
    const rendered = new Set(
      // Deprecated operations (the doubled-prefix aliases) are styled opblock-deprecated: the
      // method is read from the summary instead.
      [...stdout.matchAll(/class="opblock opblock-[a-z]+[\s\S]*?opblock-summary-method">([A-Z]+)<[\s\S]*?data-path="([^"]+)"/g)].map(
        (m) => `${m[1] as string} ${m[2] as string}`,
      ),
    );
    const spec = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const expected: string[] = [];
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const m of ['get', 'post', 'put', 'delete']) if (item[m]) expected.push(`${m.toUpperCase()} ${path}`);
    }
    expect(expected.length).toBeGreaterThan(30);
    for (const e of expected) expect(rendered, e).toContain(e);
    expect(rendered).toContain('GET /v1/Config/Monitor/');
    expect(rendered).toContain('POST /v2/token');
    // The security schemes made it into the page (the Authorize button).
    expect(stdout).toContain('authorize');
  });
});
