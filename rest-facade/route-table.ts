import type { NodeWriter } from '../src/core/node-writer';
import type { RequestContext } from '../src/core/request-context';
import type { LegacyEntity } from './errors';
import type { OperationName, RootOf, VariablesOf } from './operation-types';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a route's translation reads from one request. */
export interface RouteInput {
  /** Path parameters by name (`:uuid` → `uuid`). */
  readonly params: Readonly<Record<string, string>>;
  /** Query parameters, the first value of each. */
  readonly query: Readonly<Record<string, string>>;
  /** The parsed body; an empty object when there is none. */
  readonly body: Readonly<Record<string, unknown>>;
  readonly ctx: RequestContext;
}

/** The variables that name a route's parent: routes nested under a project or a company pass it. */
export type Scope<S> = (params: RouteInput['params']) => S;

/** The parent's variables of a nested route; none for a route of its own. */
export function scoped<S>(scope: Scope<S> | undefined, params: RouteInput['params']) {
  return scope ? scope(params) : {};
}

/** How a list route reads its pages (list-pages.ts); the dispatcher runs it. */
export interface ListPaging<V, Root> {
  rows(root: Root): number;
  /** The variables of the page after `root`, `read` rows read so far; none after the last. */
  next(input: RouteInput, variables: V, root: Root, read: number): V | undefined;
}

/** How a route is described in the OpenAPI document and the guides. */
export interface RouteDocs {
  readonly summary: string;
  /** The wire schema of the object in the request body, under `bodyKey`. */
  readonly requestBody?: { readonly bodyKey: string; readonly schema: object };
  /** The wire schema of one object of the answer, and whether the answer is a list. */
  readonly response?: { readonly schema: object; readonly list: boolean };
  readonly queryParameters?: readonly { readonly name: string; readonly description: string }[];
}

/**
 * One row of a translation table: method and path to the named GraphQL operation `N`, with the
 * mappers of its variables (`V`) and of its answer (the value `Root` of its root field) to what
 * the wire format renders (`R`, an object for JSON). The route builders make this shape with their
 * own `V` and `Root`; a table, typed `Route<R>`, checks each row against the generated types of
 * the operation it names.
 */
export interface RouteOf<R, N extends string, V, Root> {
  readonly method: HttpMethod;
  /** The path without its format suffix, `:name` for a parameter (`/projects/:uuid`). */
  readonly path: string;
  readonly operation: N;
  /** The legacy entity errors of this route are about, when GraphQL does not say. */
  readonly entity: LegacyEntity;
  /** Success status; 200 unless stated. */
  readonly status?: number;
  // Function-typed properties, not methods: a method's parameter is checked both ways, which
  // would let a renderer expect a field its operation does not select.
  readonly variables: (input: RouteInput) => V;
  /** Maps the operation's root field to what the wire format renders (a list: one page's). */
  readonly render: (root: Root) => R;
  /** A list read a page at a time (list-pages.ts); the variables give the first page. */
  readonly paging?: ListPaging<V, Root>;
  /** How a list route writes its nodes, for a compiled read to write them from the rows. */
  readonly nodeWriter?: NodeWriter;
  readonly docs: RouteDocs;
  /** The legacy name of a GraphQL input field, for the field errors of an answer. */
  readonly legacyFieldName?: (graphqlField: string) => string;
}

/**
 * A route of any of the operations `N`, each with its generated types: the union over the names,
 * so that the dispatcher runs every route with the types of its own operation, without a cast.
 */
export type Route<R, N extends OperationName = OperationName> = {
  [K in N]: RouteOf<R, K, VariablesOf<K>, RootOf<K>>;
}[N];
