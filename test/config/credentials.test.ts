import { describe, expect, it } from 'vitest';
import { interpolateString } from '../../src/config/interpolate.js';
import { brief, diagnosticsOf, loadFiles, stateOf } from './helpers.js';

const env = { MONSYNC_PASSWORD: 's3cret-pass', MONSYNC_CLIENT_SECRET: 'client-s3cret', SAME: 's3cret-pass', OK: 'fine' };

describe('credentials never become config values', () => {
  it.each([
    ['${MONSYNC_PASSWORD}', /MONSYNC_PASSWORD\} is a credential/],
    ['x ${MONSYNC_CLIENT_SECRET:-none} y', /MONSYNC_CLIENT_SECRET\} is a credential/],
    ['${SAME}', /SAME holds the same value as a monsync credential/],
  ])('%s is refused', (text, message) => {
    const r = interpolateString(text, env);
    expect(r.problems.map((p) => p.message).join('\n')).toMatch(message);
    expect(r.value).not.toContain('s3cret');
  });

  it('other variables interpolate as usual', () => {
    expect(interpolateString('a ${OK} b', env)).toMatchObject({ value: 'a fine b', problems: [] });
  });
});

// Issue 23, item 6: `${VAR}` copied any variable of the CI environment into plans and PR comments.
describe('variables whose names look like secrets are refused unless the settings list them', () => {
  const ciEnv = {
    GITHUB_TOKEN: 'ghs_0123456789abcdef',
    CI_JOB_TOKEN: 'glcbt-64_abcdef',
    AWS_SECRET_ACCESS_KEY: 'aws-secret-xyz',
    SMTP_PASSWORD: 'smtp-pass-xyz',
    DEPLOY_KEY: 'deploy-key-xyz',
    ACTIONS_RUNTIME_URL: 'https://runtime.example/abc',
    CI_REPOSITORY_URL: 'https://gitlab-ci-token:glcbt-64_abcdef@gitlab.example/x.git',
    MX_HOST: 'mx.example.com',
  };
  const monitor = (value: string, settings = '') =>
    `version: 1\n${settings}monitors:\n  - label: mx-1\n    ip_address: mx.example.com\n    test_account: probe@example.com\n    timer: 5\n    time_zone: UTC\n    custom_subject: "${value}"\n`;

  it.each([
    ['GITHUB_TOKEN', 'its name contains TOKEN'],
    ['CI_JOB_TOKEN', 'its name contains TOKEN'],
    ['AWS_SECRET_ACCESS_KEY', 'its name contains SECRET'],
    ['SMTP_PASSWORD', 'its name contains PASSWORD'],
    ['DEPLOY_KEY', 'its name contains KEY'],
    ['ACTIONS_RUNTIME_URL', "it is a CI system's own variable, which may carry credentials"],
    ['CI_REPOSITORY_URL', "it is a CI system's own variable, which may carry credentials"],
  ])('${%s} is refused at file:line:column, its value nowhere', async (name, why) => {
    const result = await loadFiles({ 'monsync.yaml': monitor(`[\${${name}}]`) }, { env: ciEnv });
    const d = diagnosticsOf(result).map(brief);
    expect(d).toEqual([
      {
        file: 'monsync.yaml',
        line: 8,
        column: 23,
        message: `\${${name}} looks like a secret (${why}): monsync does not copy it into the configuration, where plans, PR comments and the service would show it; if it is not a secret, list ${name} in settings.allowed_secret_variables`,
      },
    ]);
    expect(JSON.stringify(d)).not.toContain(ciEnv[name as keyof typeof ciEnv]);
  });

  it('a default does not make it safe: ${GITHUB_TOKEN:-x} is refused too', async () => {
    const d = diagnosticsOf(await loadFiles({ 'monsync.yaml': monitor('${GITHUB_TOKEN:-x}') }, { env: {} })).map(brief);
    expect(d.map((x) => x.message)).toEqual([expect.stringMatching(/^\$\{GITHUB_TOKEN\} looks like a secret/)]);
  });

  it('settings.allowed_secret_variables in another file lets the named variable through, and only it', async () => {
    const files = {
      'a.yaml': monitor('${DEPLOY_KEY} ${SMTP_PASSWORD}'),
      'settings.yaml': 'version: 1\nsettings:\n  allowed_secret_variables: [DEPLOY_KEY]\n',
    };
    const d = diagnosticsOf(await loadFiles(files, { env: ciEnv })).map(brief);
    expect(d.map((x) => `${x.file}:${x.line}:${x.column}: ${x.message.slice(0, 41)}`)).toEqual(['a.yaml:8:36: ${SMTP_PASSWORD} looks like a secret (its']);
    const ok = stateOf(await loadFiles({ ...files, 'settings.yaml': 'version: 1\nsettings:\n  allowed_secret_variables: [DEPLOY_KEY, SMTP_PASSWORD]\n' }, { env: ciEnv }));
    expect(ok.monitors[0]!.spec.custom_subject).toBe('deploy-key-xyz smtp-pass-xyz');
  });

  it('an ordinary name interpolates as before, and $${GITHUB_TOKEN} is a literal, not a reference', async () => {
    const s = stateOf(await loadFiles({ 'monsync.yaml': monitor('${MX_HOST} $${GITHUB_TOKEN}') }, { env: ciEnv }));
    expect(s.monitors[0]!.spec.custom_subject).toBe('mx.example.com ${GITHUB_TOKEN}');
  });

  it('in a JSON file too', async () => {
    const json = JSON.stringify({ version: 1, monitors: [{ label: 'm', ip_address: 'mx', test_account: 'p@example.com', timer: 5, time_zone: 'UTC', custom_body: '${CI_JOB_TOKEN}' }] });
    const d = diagnosticsOf(await loadFiles({ 'inventory.json': json }, { env: ciEnv })).map(brief);
    expect(d.map((x) => x.message)).toEqual([expect.stringMatching(/^\$\{CI_JOB_TOKEN\} looks like a secret/)]);
  });
});

// Issue 36, item 2: an account's credentials were not guarded like MONSYNC_PASSWORD, and common
// secret carriers (a URL with a password, *_PAT, *_DSN, *_AUTH, *PASS, a webhook) passed the name list.
describe("every credential monsync reads is guarded, an account's as much as its own", () => {
  const declaring =
    'version: 1\nsettings:\n  accounts:\n    prod:\n      paths: [prod]\n    kf:\n      paths: [kf]\n      env_prefix: KF_PROD_\n';
  const labelled = (value: string) =>
    `version: 1\nmonitors:\n  - label: "m-${value}"\n    ip_address: mx.example.com\n    test_account: probe@example.com\n    timer: 5\n    time_zone: UTC\n`;
  const accountEnv = {
    MONSYNC_PROD_PASSWORD: 'pw-prod-4417',
    MONSYNC_STAGING_CLIENT_SECRET: 'cs-staging-8812',
    KF_PROD_PASSWORD: 'pw-kf-5530',
    KF_PROD_CLIENT_SECRET: 'cs-kf-2291',
  };

  it.each([
    ['MONSYNC_PROD_PASSWORD', 'pw-prod-4417'],
    ['MONSYNC_STAGING_CLIENT_SECRET', 'cs-staging-8812'],
    ['KF_PROD_PASSWORD', 'pw-kf-5530'],
    ['KF_PROD_CLIENT_SECRET', 'cs-kf-2291'],
  ])("a copy of %s in another variable is refused in an account's file, its value nowhere", async (_name, value) => {
    const files = { 'monsync.yaml': declaring, 'prod/m.yaml': labelled('${PW_COPY}') };
    const result = await loadFiles(files, { paths: ['monsync.yaml', 'prod/m.yaml'], env: { ...accountEnv, PW_COPY: value } });
    const d = diagnosticsOf(result).map(brief);
    expect(d).toEqual([
      {
        file: 'prod/m.yaml',
        line: 3,
        column: 15,
        message: 'environment variable PW_COPY holds the same value as a monsync credential; it is not put into the configuration, where plans and PR comments would show it',
      },
    ]);
    expect(JSON.stringify(d)).not.toContain(value);
  });

  it.each(['MONSYNC_PROD_PASSWORD', 'KF_PROD_CLIENT_SECRET'])('${%s} is refused as a credential, even when allowed by name', async (name) => {
    const files = {
      'monsync.yaml': `${declaring}  allowed_secret_variables: [${name}]\n`,
      'prod/m.yaml': labelled(`\${${name}}`),
    };
    const d = diagnosticsOf(await loadFiles(files, { paths: ['monsync.yaml', 'prod/m.yaml'], env: accountEnv })).map(brief);
    expect(d.map((x) => x.message)).toEqual([expect.stringMatching(new RegExp(`^\\$\\{${name}\\} is a credential`))]);
  });

  const carriers: Record<string, string> = {
    DATABASE_URL: 'postgres://app:db-pw-77@db.internal:5432/app',
    HTTPS_PROXY: 'http://proxyuser:proxy-pw-31@proxy.internal:3128',
    UPSTREAM: 'https://deploy:up-pw-12@git.example.com/x.git',
    SENTRY_DSN: 'https://abc123@o1.ingest.sentry.io/42',
    SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T0/B0/xyz',
    GH_PAT: 'ghp_abcdef0123',
    NPM_AUTH: 'dXNlcjpwYXNz',
    PGPASS: 'pg-pass-90',
  };
  it.each([
    ['DATABASE_URL', 'its value is a URL with a password'],
    ['HTTPS_PROXY', 'its value is a URL with a password'],
    ['UPSTREAM', 'its value is a URL with a password'],
    ['SENTRY_DSN', 'its name ends in _DSN'],
    ['SLACK_WEBHOOK_URL', 'its name contains WEBHOOK'],
    ['GH_PAT', 'its name ends in _PAT'],
    ['NPM_AUTH', 'its name ends in _AUTH'],
    ['PGPASS', 'its name ends in PASS'],
  ])('${%s} is refused (%s) unless settings.allowed_secret_variables lists it', async (name, why) => {
    const files = { 'monsync.yaml': labelled(`\${${name}}`) };
    const d = diagnosticsOf(await loadFiles(files, { env: carriers })).map(brief);
    expect(d.map((x) => x.message)).toEqual([`\${${name}} looks like a secret (${why}): monsync does not copy it into the configuration, where plans, PR comments and the service would show it; if it is not a secret, list ${name} in settings.allowed_secret_variables`]);
    expect(JSON.stringify(d)).not.toContain(carriers[name]);
    const allowed = stateOf(await loadFiles({ 'monsync.yaml': `${labelled(`\${${name}}`)}settings:\n  allowed_secret_variables: [${name}]\n` }, { env: carriers }));
    expect(allowed.monitors[0]!.label).toBe(`m-${carriers[name]}`);
  });

  it('a URL without a password, and a name merely containing PASS or AUTH, interpolate as before', async () => {
    const env = { MIRROR: 'https://user@mirror.example.com/x', PASSAGE: 'p1', AUTHOR: 'a1' };
    const s = stateOf(await loadFiles({ 'monsync.yaml': labelled('${MIRROR} ${PASSAGE} ${AUTHOR}') }, { env }));
    expect(s.monitors[0]!.label).toBe('m-https://user@mirror.example.com/x p1 a1');
  });
});
