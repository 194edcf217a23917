import type { RequestContext } from '../src/core/request-context';
import type { LegacyEntity } from './errors';

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
 * One row of a translation table: method and path to a named GraphQL operation, with the mappers
 * of its variables and of its answer. `R` is what the wire format renders (an object for JSON).
 */
export interface Route<R = unknown> {
  readonly method: HttpMethod;
  /** The path without its format suffix, `:name` for a parameter (`/projects/:uuid`). */
  readonly path: string;
  readonly operation: string;
  /** The legacy entity errors of this route are about, when GraphQL does not say. */
  readonly entity: LegacyEntity;
  /** Success status; 200 unless stated. */
  readonly status?: number;
  variables(input: RouteInput): Record<string, unknown>;
  /** Maps the operation's root field to what the wire format renders. */
  render(result: unknown): R;
  readonly docs: RouteDocs;
}
