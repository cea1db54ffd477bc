import type { Request, Response } from 'express';
import { VERSION } from '../lib/version.js';

const ENTRY_POINTS = {
  docs: '/docs',
  openapi: '/openapi.json',
  health: '/api/v1/health',
  metrics: '/metrics',
  console: '/console',
};

/**
 * GET /: a browser is sent to the API reference; any other client gets a small JSON index of the
 * entry points (a JSON 404 at the root told a newcomer nothing).
 */
export function entryPoints(req: Request, res: Response): void {
  if (req.accepts(['json', 'html']) === 'html') return res.redirect(302, ENTRY_POINTS.docs);
  res.json({ name: 'clinigate', version: VERSION, ...ENTRY_POINTS });
}
