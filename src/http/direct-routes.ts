import type { Express, IRouter } from 'express';
import type { ErrorAnswer } from './error-handler.js';
import type { PlainHandler, PlainMiddleware, PlainRequest, PlainResponse } from './request-types.js';

interface DirectRoute {
  /** What `req.route` says of it: its pattern names the request in the access log, metrics and audit. */
  route: { path: string };
  handler: PlainHandler;
}

type Handle = (req: PlainRequest, res: PlainResponse, callback?: unknown) => void;

/**
 * Routes answered on Node's own request and response, never turned into Express's (issue 20:
 * the busiest path, signed inbound webhooks). Express gives every request its prototypes
 * (`Object.setPrototypeOf` on Node's request and response, which V8's optimised code does not
 * survive) and walks its router: measured here, ~110 and ~80 µs of CPU per request, more than
 * everything the route itself does. A module registers such a route with `post`, as it would on
 * the router; the app then `install`s them:
 *
 * - A request whose method and URL are exactly a registered route's runs the app-wide
 *   middlewares (`before`: request ids, security headers, the answer's observers, no-store),
 *   then the handler; any error goes to the app's one error mapper. The handler, the middlewares
 *   and the mapper use Node's API alone (PlainHandler, PlainMiddleware), so both paths answer alike.
 * - The route is registered on the router too, with the same handler: a URL that is not exactly
 *   its path (another letter case, a trailing slash, a query string) is served there as before.
 */
export class DirectRoutes {
  private readonly posts = new Map<string, DirectRoute>();

  post(router: IRouter, path: string, handler: PlainHandler): void {
    router.post(path, handler);
    this.posts.set(path, { route: { path }, handler });
  }

  /** Called once the app's routes are registered; `before` and `onError` are the app's own. */
  install(app: Express, before: PlainMiddleware, onError: ErrorAnswer): void {
    const posts = this.posts;
    const viaExpress = (app as unknown as { handle: Handle }).handle;
    (app as unknown as { handle: Handle }).handle = function handle(this: unknown, req, res, callback) {
      const direct = req.method === 'POST' && req.url !== undefined ? posts.get(req.url) : undefined;
      if (!direct) return viaExpress.call(this, req, res, callback);
      req.originalUrl = req.url;
      req.baseUrl = '';
      req.params = {};
      req.route = direct.route;
      res.locals = Object.create(null) as Record<string, unknown>;
      // As Express's final handler would, a mapper that fails itself ends the answer rather than the process.
      const fail = (err: unknown) => {
        try {
          onError(err, req, res);
        } catch {
          res.destroy();
        }
      };
      before(req, res, (err) => {
        if (err) fail(err);
        else direct.handler(req, res).catch(fail);
      });
    };
  }
}
