import { fileURLToPath } from 'node:url';
import express, { type RequestHandler } from 'express';

/** The console's own files (`console/` at the package root: plain HTML, CSS and JS, no build step). */
export const CONSOLE_DIR = fileURLToPath(new URL('../../../console/', import.meta.url));

/**
 * Serves the console. `no-cache` makes a browser revalidate after an upgrade; the page keeps the
 * operator key in sessionStorage and sends it as `X-Api-Key`, never in a URL.
 */
export function consoleStatic(): RequestHandler {
  return express.static(CONSOLE_DIR, {
    index: 'index.html',
    fallthrough: true,
    setHeaders: (res) => {
      res.setHeader('cache-control', 'no-cache');
      res.setHeader('referrer-policy', 'no-referrer');
    },
  });
}
