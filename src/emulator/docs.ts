/**
 * GET /v2/docs: interactive API documentation, as the real service serves its Swagger UI there.
 * The description is schemas/openapi.json (both API versions); the UI is swagger-ui-dist, served
 * from node_modules. Nothing is fetched from outside: no CDN, and the online spec validator badge
 * is switched off.
 *
 * Inside the single executable (`npm run build:binary`) these files are its SEA assets, under the
 * names `docFilesOnDisk` gives them (scripts/build-binary.mjs embeds exactly those): the same rule as
 * src/util/own-files.ts, kept here because the emulator imports nothing of the rest of src/.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getAsset, isSea } from 'node:sea';
import { fileURLToPath } from 'node:url';

/** The same relative place from src/emulator/ and from dist/emulator/ (in the executable: no file, see `packageFile`). */
export const OPENAPI_PATH = fileURLToPath(new URL('../../schemas/openapi.json', import.meta.url));

const IN_BINARY = isSea();

const CONTENT_TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.png': 'image/png',
  '.html': 'text/html; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** The only files served from swagger-ui-dist: what the page loads, nothing else of the disk. */
const ASSETS = new Set([
  'swagger-ui.css',
  'swagger-ui.css.map',
  'swagger-ui-bundle.js',
  'swagger-ui-bundle.js.map',
  'favicon-16x16.png',
  'favicon-32x32.png',
  'oauth2-redirect.html',
  'oauth2-redirect.js',
]);

const INITIALIZER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/v2/docs/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'list',
    validatorUrl: null,
    oauth2RedirectUrl: window.location.origin + '/v2/docs/oauth2-redirect.html',
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Monitoring API v1 and v2 (monsync emulator)</title>
<link rel="stylesheet" href="/v2/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/v2/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"><noscript>The interactive documentation needs JavaScript; the description itself is at <a href="/v2/docs/openapi.json">/v2/docs/openapi.json</a>.</noscript></div>
<script src="/v2/docs/swagger-ui-bundle.js"></script>
<script src="/v2/docs/swagger-initializer.js"></script>
</body>
</html>
`;

export interface DocFile {
  contentType: string;
  content: string | Buffer;
}

let distDir: string | undefined;
function swaggerDist(): string {
  distDir ??= dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return distDir;
}

/** Where each file served here is in a clone or package, by the name the executable stores it under. */
export function docFilesOnDisk(): Record<string, string> {
  const files: Record<string, string> = { 'schemas/openapi.json': OPENAPI_PATH };
  for (const name of ASSETS) files[`swagger-ui-dist/${name}`] = join(swaggerDist(), name);
  return files;
}

/** One of those files, from disk or from the executable. */
function packageFile(key: string): Buffer {
  return IN_BINARY ? Buffer.from(getAsset(key)) : readFileSync(docFilesOnDisk()[key] as string);
}

const cache = new Map<string, DocFile>();

export function docsPage(): DocFile {
  return { contentType: 'text/html; charset=utf-8', content: PAGE };
}

/** A file under /v2/docs/, or undefined when there is no such file. */
export function docsFile(name: string): DocFile | undefined {
  const hit = cache.get(name);
  if (hit) return hit;
  let file: DocFile | undefined;
  if (name === 'openapi.json') {
    file = { contentType: 'application/json; charset=utf-8', content: packageFile('schemas/openapi.json') };
  } else if (name === 'swagger-initializer.js') {
    file = { contentType: CONTENT_TYPES['.js'] as string, content: INITIALIZER };
  } else if (name === 'index.html') {
    file = docsPage();
  } else if (ASSETS.has(name)) {
    const ext = name.slice(name.lastIndexOf('.'));
    file = { contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream', content: packageFile(`swagger-ui-dist/${name}`) };
  }
  if (file) cache.set(name, file);
  return file;
}
