import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { getOpenApi } from './get-openapi.js';
import { docsCsp, getReferenceAsset, getReferencePage } from './reference-page.js';

/** Open routes: the OpenAPI document and its reference page. */
export function docsRoutes(router: IRouter, _deps: RouteDeps): void {
  router.get('/openapi.json', getOpenApi());
  router.get('/docs', docsCsp, getReferencePage());
  router.get('/docs/:asset', docsCsp, getReferenceAsset());
}
