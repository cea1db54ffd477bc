import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { getCenters } from './list-centers.js';
import { getServices } from './list-services.js';

export function centersRoutes(router: IRouter, { pool, guards }: RouteDeps): void {
  router.get('/api/v1/centers', ...guards.voice, getCenters(pool));
  router.get('/api/v1/centers/services', ...guards.voice, getServices(pool));
}
