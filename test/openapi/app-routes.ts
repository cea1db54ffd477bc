import type { TestApp } from '../helpers/test-app.js';

export interface AppRoute {
  method: string;
  /** OpenAPI form: `:param` becomes `{param}`. */
  path: string;
}

/** Every route the app serves, as the app noted them while its modules registered them (createApp's `routes`). */
export function appRoutes(t: Pick<TestApp, 'routes'>): AppRoute[] {
  return t.routes.map((r) => ({ method: r.method.toLowerCase(), path: r.path.replace(/:(\w+)/g, '{$1}') }));
}
