// The human-readable API reference at /docs: Scalar's standalone bundle (@scalar/api-reference, MIT)
// rendering GET /api/v1/openapi.json. The bundle is served from our own node_modules, never a CDN, so the
// page works offline and under the site's Content-Security-Policy (script-src 'self'); Scalar's hosted
// extras (web fonts, the CORS proxy, the AI agent) are switched off for the same reason.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const API_REFERENCE_SCRIPT_PATH = '/docs/api-reference.js';

const PACKAGE_DIR = path.join(process.cwd(), 'node_modules', '@scalar', 'api-reference');

let script: { body: string; version: string } | undefined;

/** The renderer's browser bundle (3.5 MB), read once per process. */
export function apiReferenceScript(): { body: string; version: string } {
  script ??= {
    body: readFileSync(path.join(PACKAGE_DIR, 'dist', 'browser', 'standalone.js'), 'utf8'),
    version: (JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }).version,
  };
  return script;
}

export function apiReferencePage(specUrl = '/api/v1/openapi.json'): string {
  const configuration = {
    url: specUrl,
    withDefaultFonts: false,
    agent: { disabled: true },
    showDeveloperTools: 'never',
    hideClientButton: true,
  };
  // The version in the script URL lets browsers cache the 3.5 MB bundle until an upgrade changes it.
  const scriptUrl = `${API_REFERENCE_SCRIPT_PATH}?v=${encodeURIComponent(apiReferenceScript().version)}`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Switchboard API reference</title>
  </head>
  <body>
    <noscript>This page needs JavaScript. The raw document is at <a href="${specUrl}">${specUrl}</a>.</noscript>
    <div id="app"></div>
    <script src="${scriptUrl}"></script>
    <script>Scalar.createApiReference('#app', ${JSON.stringify(configuration).replace(/</g, '\\u003c')});</script>
  </body>
</html>
`;
}
