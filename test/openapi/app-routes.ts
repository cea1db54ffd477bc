import type { Express } from 'express';

export interface AppRoute {
  method: string;
  /** OpenAPI form: `:param` becomes `{param}`. */
  path: string;
}

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every route the app serves, read from Express 5's router stack (module routers are mounted at `/`). */
export function appRoutes(app: Express): AppRoute[] {
  const routes: AppRoute[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths) {
          for (const [method, on] of Object.entries(layer.route.methods)) {
            if (on && method !== '_all') routes.push({ method, path: path.replace(/:(\w+)/g, '{$1}') });
          }
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return routes;
}
