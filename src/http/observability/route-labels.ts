import type { Request, Response } from 'express';

/** The interfaces of the service, as metrics and logs name them. */
export type InterfaceLabel = 'graphql' | 'json' | 'xml' | 'oauth' | 'other';

/** What one request is counted and logged as: never a raw path, so the set of values stays small. */
export interface RouteLabels {
  readonly interface: InterfaceLabel;
  /**
   * The route template (`/api/1/projects/:uuid.json`, `/oauth/token`), the GraphQL operation name,
   * `anonymous` (a GraphQL operation without a name) or `unmatched` (no route answered).
   */
  readonly route: string;
}

/**
 * Where a handler leaves the template of the route it matched. The facade's dispatcher sets it (it
 * matches routes itself, so Express knows no route); handlers of Express routes need not.
 */
export const ROUTE_TEMPLATE_LOCAL = 'routeTemplate';

/** At most this many GraphQL operation names get a label of their own; later ones count as `other`. */
export const MAX_OPERATION_NAMES = 200;
const OPERATION_NAME_MAX_LENGTH = 64;
const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
/** The first operation definition's name: `query Name`, `mutation Name(...)`, after comments and fragments. */
const NAME_IN_DOCUMENT = /\b(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/;
/** Each answered response's labels, computed once; forgotten with the response. */
const LABELS = new WeakMap<Response, RouteLabels>();

/**
 * Labels requests once they are answered. GraphQL operation names are chosen by clients, so the
 * names admitted are capped, and only a request that got past authentication (status below 400)
 * may admit a new one: an anonymous client cannot flood the metrics with made-up names.
 */
export class RouteLabeller {
  private readonly operations = new Set<string>();

  /** The labels of an answered request (computed once; logs and metrics agree). */
  labelsOf(req: Request, res: Response): RouteLabels {
    const cached = LABELS.get(res);
    if (cached) return cached;
    const labels = this.compute(req, res);
    LABELS.set(res, labels);
    return labels;
  }

  private compute(req: Request, res: Response): RouteLabels {
    const path = req.originalUrl.split('?')[0] ?? '';
    const iface = interfaceOf(path);
    const template: unknown = res.locals[ROUTE_TEMPLATE_LOCAL];
    if (typeof template === 'string') return { interface: iface, route: template };
    if (iface === 'graphql')
      return { interface: iface, route: this.operationLabel(req, res.statusCode) };
    // Express routes (OAuth, CSV downloads, the probes) are declared with their full paths.
    const routePath: unknown = (req as { route?: { path?: unknown } }).route?.path;
    if (typeof routePath === 'string') return { interface: iface, route: routePath };
    // One route for several paths: the one this request's path fits.
    const fitting = Array.isArray(routePath)
      ? routePath.find((candidate) => typeof candidate === 'string' && fits(candidate, path))
      : undefined;
    return { interface: iface, route: typeof fitting === 'string' ? fitting : 'unmatched' };
  }

  private operationLabel(req: Request, status: number): string {
    const name = operationNameOf(req);
    if (name === undefined) return 'anonymous';
    if (this.operations.has(name)) return name;
    if (status < 400 && this.operations.size < MAX_OPERATION_NAMES) {
      this.operations.add(name);
      return name;
    }
    return 'other';
  }
}

/** Whether `path` fits the plain template `pattern` (`/a/:b/c`: literal segments and `:name` ones). */
function fits(pattern: string, path: string): boolean {
  const expected = pattern.split('/');
  const actual = path.split('/');
  return (
    expected.length === actual.length &&
    expected.every((segment, i) => segment.startsWith(':') || segment === actual[i])
  );
}

function interfaceOf(path: string): InterfaceLabel {
  if (path === '/graphql' || path.startsWith('/graphql/')) return 'graphql';
  if (path.startsWith('/oauth/')) return 'oauth';
  if (path === '/api/1' || path.startsWith('/api/1/')) return 'json';
  if (path.endsWith('.xml')) return 'xml';
  return 'other';
}

/** `operationName` of the body (POST) or query string (GET), else the document's first operation's; checked and capped. */
function operationNameOf(req: Request): string | undefined {
  const source: unknown = req.method === 'GET' ? req.query : req.body;
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return undefined;
  const { operationName, query } = source as { operationName?: unknown; query?: unknown };
  let name: string | undefined;
  if (typeof operationName === 'string' && operationName !== '') name = operationName;
  else if (typeof query === 'string') name = NAME_IN_DOCUMENT.exec(query.slice(0, 4096))?.[1];
  if (name === undefined) return undefined;
  name = name.slice(0, OPERATION_NAME_MAX_LENGTH);
  return NAME.test(name) ? name : 'invalid';
}
