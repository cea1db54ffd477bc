import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { getHealth } from './get-health.js';

export function healthRoutes(router: IRouter, { pool, engine }: RouteDeps): void {
  router.get(
    '/api/v1/health',
    getHealth(pool, () => engine.name),
  );
}
