import type { RequestListener } from 'node:http';
import express, { type IRouter } from 'express';
import type { AppDeps, Guards, RouteDeps } from './app-deps.js';
import { accessLog } from './http/access-log.js';
import { auditTrail } from './http/audit.js';
import { apiKeyAuth, keyRing } from './http/auth/api-key.js';
import { bearerAuth, createTokenVerifier } from './http/auth/bearer.js';
import { bodyParsers, CODIFY_BODY_LIMIT } from './http/body-parsers.js';
import { entryPoints } from './http/entry-points.js';
import { DirectRoutes } from './http/direct-routes.js';
import { answerError, asErrorHandler, notFoundHandler } from './http/error-handler.js';
import { inOneLayer } from './http/in-one-layer.js';
import { noStore } from './http/no-store.js';
import { observeRequests } from './http/observe-requests.js';
import { requestContext } from './http/request-ids.js';
import { requireDoctor } from './http/require-doctor.js';
import { securityHeaders } from './http/security-headers.js';
import './http/request-types.js';
import { auditRoutes } from './modules/audit/routes.js';
import { feedbackRoutes } from './modules/feedback/routes.js';
import { callsRoutes } from './modules/calls/routes.js';
import { centersRoutes } from './modules/centers/routes.js';
import { codifyRoutes } from './modules/codify/routes.js';
import { consoleRoutes } from './modules/console/routes.js';
import { docsRoutes } from './modules/docs/routes.js';
import { httpMetrics } from './metrics/http-metrics.js';
import { healthRoutes } from './modules/health/routes.js';
import { metricsRoutes } from './modules/metrics/routes.js';
import { inboundEventsRoutes } from './modules/inbound-events/routes.js';
import { integrationsRoutes } from './modules/integrations/routes.js';
import { notesRoutes } from './modules/notes/routes.js';
import { runsRoutes } from './modules/runs/routes.js';
import { threadsRoutes } from './modules/threads/routes.js';
import { transcriptionsRoutes } from './modules/transcriptions/routes.js';
import { webhookDeliveriesRoutes, webhookEndpointsRoutes } from './modules/outbound-webhooks/routes.js';

/** Every `/v1` route and every `X-Api-Key` route (and the signed inbound webhooks): one audit row per request. */
const AUDITED_PREFIXES = [
  '/v1',
  '/api/v1/calls',
  '/api/v1/centers',
  '/api/v1/webhooks',
  '/api/v1/webhook-endpoints',
  '/api/v1/webhook-deliveries',
  '/api/v1/integrations',
  '/api/v1/audit-events',
  '/api/v1/feedback',
  '/api/v1/console',
];

function createGuards(deps: AppDeps): Guards {
  const keys = keyRing(deps.config.VOICE_API_KEYS, deps.config.OPERATOR_API_KEYS);
  // Bodies are read only once the caller is authenticated (last in every guard); signed
  // webhooks read their own bytes and check the signature first.
  const body = bodyParsers({ '/v1/codify': CODIFY_BODY_LIMIT });
  return {
    clinical: [bearerAuth(createTokenVerifier(deps.config)), requireDoctor, body],
    voice: [apiKeyAuth(keys, 'voice'), body],
    operator: [apiKeyAuth(keys, 'operator'), body],
  };
}

/** A route the app serves: its method (upper case) and its path as registered (`:param`). */
export interface AppRoute {
  method: string;
  path: string;
}

export interface HttpApp {
  /**
   * The HTTP server's request listener (`http.createServer(listener)`; supertest takes it as
   * `request(listener)`): the directly answered routes first (http/direct-routes.ts), then the
   * Express app.
   */
  listener: RequestListener;
  /** Every route registered, in order (the OpenAPI document must describe exactly these). */
  routes: readonly AppRoute[];
}

const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/**
 * The app as the modules see it, noting each route they register (method and path) in `routes`.
 * Registration only: requests never pass through it.
 */
function notingRoutes(app: IRouter, routes: AppRoute[]): IRouter {
  return new Proxy(app, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      if (typeof name !== 'string' || !ROUTE_METHODS.has(name)) return value.bind(target);
      return (path: unknown, ...handlers: unknown[]) => {
        if (typeof path === 'string' && handlers.length) routes.push({ method: name.toUpperCase(), path });
        return value.call(target, path, ...handlers);
      };
    },
  });
}

/** Builds the HTTP app: middleware in order, the feature routes, one error handler, its request listener. Never listens. */
export function createApp(deps: AppDeps): HttpApp {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.set('query parser', 'simple');
  // No automatic weak ETag (a SHA-1 of every body): /v1 and /api/v1 answers are no-store, never
  // revalidated; a note still carries its version ETag, and a matching If-None-Match still gets 304.
  app.set('etag', false);

  const routes: AppRoute[] = [];
  const router = notingRoutes(app, routes);
  const routeDeps: RouteDeps = { ...deps, guards: createGuards(deps), direct: new DirectRoutes() };

  const appWide = inOneLayer([
    requestContext,
    securityHeaders(),
    observeRequests([accessLog(deps.logger), httpMetrics(deps.metrics), auditTrail(deps.audit, AUDITED_PREFIXES)]),
    noStore(['/v1', '/api/v1']),
  ]);
  app.use(appWide);

  // Each module registers its routes on the app itself, in this order: one routing table, rather
  // than a router per module to pass through before the one that answers (a nested router cost
  // ingest ~6% of its main-thread CPU). Signed inbound webhooks first: the busiest path (EHR
  // ingest) is matched before any other route, then an integration's own webhooks; no other
  // module serves a path under /api/v1/webhooks/, and no module registers middleware for paths
  // beyond its own.
  inboundEventsRoutes(router, routeDeps);
  integrationsRoutes(router, routeDeps);
  healthRoutes(router, routeDeps);
  metricsRoutes(router, routeDeps);
  docsRoutes(router, routeDeps);
  router.get('/', entryPoints);
  transcriptionsRoutes(router, routeDeps);
  threadsRoutes(router, routeDeps);
  codifyRoutes(router, routeDeps);
  callsRoutes(router, routeDeps);
  centersRoutes(router, routeDeps);
  runsRoutes(router, routeDeps);
  notesRoutes(router, routeDeps);
  webhookEndpointsRoutes(router, routeDeps);
  webhookDeliveriesRoutes(router, routeDeps);
  consoleRoutes(router, routeDeps);
  auditRoutes(router, routeDeps);
  feedbackRoutes(router, routeDeps);

  const onError = answerError(deps.logger);
  app.use(notFoundHandler);
  app.use(asErrorHandler(onError));
  return { listener: routeDeps.direct.listener(app, appWide, onError), routes };
}
