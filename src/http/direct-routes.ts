import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { IRouter } from 'express';
import type { ErrorAnswer } from './error-handler.js';
import type { PlainHandler, PlainMiddleware, PlainRequest, PlainResponse } from './request-types.js';

interface DirectRoute {
  /** What `req.route` says of it: its pattern names the request in the access log, metrics and audit. */
  route: { path: string };
  handler: PlainHandler;
}

/**
 * Routes answered on Node's own request and response, never turned into Express's: the busiest
 * path, signed inbound webhooks. Express gives every request its prototypes
 * (`Object.setPrototypeOf` on Node's request and response, which V8's optimised code does not
 * survive) and walks its router: ~110 and ~80 µs of CPU per request, more than everything the
 * route itself does (README, benchmarks). A module registers such a route with `post`, as it
 * would on the router; the app then builds the HTTP server's request `listener`:
 *
 * - A request whose method and URL are exactly a registered route's runs the app-wide
 *   middlewares (`before`: request ids, security headers, the answer's observers, no-store),
 *   then the handler; any error goes to the app's one error mapper. The handler, the middlewares
 *   and the mapper use Node's API alone (PlainHandler, PlainMiddleware), so both paths answer alike.
 * - Every other request goes to the Express app, itself a request listener. The route is
 *   registered on its router too, with the same handler: a URL that is not exactly its path
 *   (another letter case, a trailing slash, a query string) is served there as before.
 */
export class DirectRoutes {
  private readonly posts = new Map<string, DirectRoute>();

  post(router: IRouter, path: string, handler: PlainHandler): void {
    router.post(path, handler);
    this.posts.set(path, { route: { path }, handler });
  }

  /**
   * The HTTP server's request listener (`http.createServer(listener)`): the exact direct routes
   * answered here, everything else handed to `app`. Called once the app's routes are
   * registered; `before` and `onError` are the app's own.
   */
  listener(app: RequestListener, before: PlainMiddleware, onError: ErrorAnswer): RequestListener {
    const posts = this.posts;
    return function listener(request: IncomingMessage, response: ServerResponse) {
      const direct = request.method === 'POST' && request.url !== undefined ? posts.get(request.url) : undefined;
      if (!direct) return app(request, response);
      const req = request as PlainRequest;
      const res = response as PlainResponse;
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
