import { AppError, type EntityName } from '../src/core/errors';
import type { RequestContext } from '../src/core/request-context';
import type { Executor } from '../src/graphql/executor';
import { fromGraphQLError, type FacadeError } from './errors';
import type { OperationRegistry } from './operation-registry';
import type { OperationName, RootOf, VariablesOf } from './operation-types';

/** What running one operation gave: the value of its root field, or its first error. */
export type OperationOutcome<N extends OperationName> =
  { readonly root: RootOf<N> } | { readonly error: FacadeError };

/** What runs the facade's named operations, whoever asked (a route, a CSV page, the CLI). */
export interface OperationRunner {
  readonly execute: Executor;
  readonly registry: OperationRegistry;
}

/**
 * Runs the named operation of the registry in-process. The executor port answers the data typed
 * as asked: every facade operation selects exactly one root field (the codegen plugin refuses
 * others), whose value Apollo has validated against the schema the types were generated from.
 */
export async function runOperation<N extends OperationName>(
  runner: OperationRunner,
  name: N,
  variables: VariablesOf<N>,
  ctx: RequestContext,
): Promise<OperationOutcome<N>> {
  const result = await runner.execute<Readonly<Record<string, RootOf<N>>>>(
    runner.registry.get(name),
    variables,
    ctx,
  );
  if (result.errors?.length) return { error: fromGraphQLError(result.errors[0]!) };
  const roots = Object.values(result.data ?? {});
  if (roots.length !== 1)
    throw new Error(`facade operation ${name} did not answer its one root field`);
  return { root: roots[0]! };
}

/**
 * The object of a lookup or an act. GraphQL answers a missing or hidden object with an error,
 * which the route never renders; should a lookup ever answer null without one (a nullable lookup
 * of the schema), the legacy answer is still 404.
 */
export function found<T>(node: T | null, entity: EntityName): T {
  if (node === null) throw new AppError('NOT_FOUND', `${entity} not found`, { entity });
  return node;
}
