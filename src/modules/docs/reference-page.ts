import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { notFound } from '../../lib/errors.js';

/**
 * The Scalar API reference, served from the installed package (no CDN). Its HTML API reads the
 * spec URL and configuration from data attributes of an empty `#api-reference` script, so the
 * page needs no inline script: `script-src 'self'` stays as strict as everywhere else.
 */
const bundleDir = join(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser');
const ASSETS: Record<string, string> = { 'standalone.js': join(bundleDir, 'standalone.js') };

// Off: default fonts (Scalar's CDN), telemetry, the hosted client, the AI agent (Scalar's proxy)
// and the developer toolbar. The page then loads nothing but this service's own URLs.
const CONFIGURATION = JSON.stringify({
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  showToolbar: 'never',
  metaData: { title: 'Clinigate API reference' },
});

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Clinigate API reference</title>
  <link rel="icon" href="data:,">
</head>
<body>
  <script id="api-reference" data-url="/openapi.json" data-configuration="${escapeAttribute(CONFIGURATION)}"></script>
  <script src="/docs/standalone.js"></script>
</body>
</html>
`;

/**
 * CSP of the reference page only: the global policy (helmet defaults) plus what the bundle
 * needs. It sets its styles inline (already allowed by style-src) and fetches /openapi.json
 * from this origin.
 */
export const docsCsp: RequestHandler = helmet.contentSecurityPolicy({
  useDefaults: true,
  directives: {
    'script-src': ["'self'"],
    'connect-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'worker-src': ["'self'", 'blob:'],
  },
});

/** GET /docs */
export function getReferencePage() {
  return (_req: Request, res: Response) => {
    res.type('html').set('cache-control', 'no-cache').send(PAGE);
  };
}

/** GET /docs/{asset}: the bundle, from node_modules. */
export function getReferenceAsset() {
  return (req: Request<{ asset: string }>, res: Response) => {
    const file = Object.hasOwn(ASSETS, req.params.asset) ? ASSETS[req.params.asset] : undefined;
    if (!file) throw notFound('Asset', req.params.asset);
    res.set('cache-control', 'public, max-age=3600').sendFile(file);
  };
}
