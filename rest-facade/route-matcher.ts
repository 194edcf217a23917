import type { HttpMethod, Route } from './route-table';

export type RouteMatch<R> =
  | { readonly kind: 'found'; readonly route: Route<R>; readonly params: Record<string, string> }
  | { readonly kind: 'method-not-allowed'; readonly allow: readonly HttpMethod[] }
  | { readonly kind: 'not-found' };

interface CompiledRoute<R> {
  readonly route: Route<R>;
  readonly segments: readonly string[];
}

/**
 * Matches a path (format suffix already removed) against a table of routes: a path no route has
 * is 404, a known path with another method is 405 with the methods it does have.
 */
export class RouteMatcher<R> {
  private readonly routes: readonly CompiledRoute<R>[];

  constructor(routes: readonly Route<R>[]) {
    this.routes = routes.map((route) => ({ route, segments: split(route.path) }));
    const seen = new Set<string>();
    for (const { route } of this.routes) {
      const key = `${route.method} ${route.path.replace(/:\w+/g, ':')}`;
      if (seen.has(key)) throw new Error(`two facade routes for ${route.method} ${route.path}`);
      seen.add(key);
    }
  }

  match(method: string, path: string): RouteMatch<R> {
    const segments = split(path);
    const wanted = method === 'HEAD' ? 'GET' : method;
    const allow = new Set<HttpMethod>();
    for (const compiled of this.routes) {
      const params = matchSegments(compiled.segments, segments);
      if (!params) continue;
      if (compiled.route.method === wanted) return { kind: 'found', route: compiled.route, params };
      allow.add(compiled.route.method);
    }
    return allow.size
      ? { kind: 'method-not-allowed', allow: [...allow].sort() }
      : { kind: 'not-found' };
  }
}

function split(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

function matchSegments(
  pattern: readonly string[],
  actual: readonly string[],
): Record<string, string> | null {
  if (pattern.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i += 1) {
    const expected = pattern[i]!;
    const segment = actual[i]!;
    if (expected.startsWith(':')) {
      let value: string;
      try {
        value = decodeURIComponent(segment);
      } catch {
        return null;
      }
      params[expected.slice(1)] = value;
    } else if (expected !== segment) {
      return null;
    }
  }
  return params;
}
