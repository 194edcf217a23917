import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import {
  execute,
  getNamedType,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  isInputObjectType,
  typeFromAST,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLInputObjectType,
  type GraphQLSchema,
  type GraphQLType,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

type Runner = (context: unknown, variables: Record<string, unknown>) => Promise<ExecutionResult> | ExecutionResult;

/**
 * Runs operations with graphql-jit instead of graphql-js, through Apollo's gateway hook: Apollo
 * still parses, validates (with its document cache), formats errors and runs plugins; only the
 * execution of a validated document changes. graphql-jit compiles each operation once into a
 * function that walks the selection without graphql-js's per-field bookkeeping.
 *
 * graphql-jit cannot compile an operation whose variables have a recursive input type (our
 * filters nest `and`/`or`/`not`): it recurses until the stack overflows, which takes seconds
 * (zalando-incubator/graphql-jit#175). Such operations are recognised before compiling and,
 * with any other it refuses, run on graphql-js as before.
 *
 * A runner is kept per parsed document (Apollo caches one document per query text) and
 * operation name.
 */
export function jitGateway(schema: GraphQLSchema): GatewayInterface {
  const runners = new WeakMap<DocumentNode, Map<string, Runner>>();

  function runnerFor(document: DocumentNode, operationName: string | null): Runner {
    let byName = runners.get(document);
    if (!byName) runners.set(document, (byName = new Map()));
    const key = operationName ?? '';
    let runner = byName.get(key);
    if (!runner) {
      runner = compile(schema, document, operationName);
      byName.set(key, runner);
    }
    return runner;
  }

  const executor: GatewayExecutor = async (request) => {
    const result = await runnerFor(request.document, request.operationName)(request.context, request.request.variables ?? {});
    return result.errors ? { ...result, errors: result.errors.map(asGraphQLError) } : result;
  };

  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => undefined;
    },
    load: async () => ({ executor }),
    stop: async () => undefined,
  };
}

function compile(schema: GraphQLSchema, document: DocumentNode, operationName: string | null): Runner {
  const definitions = getOperationAST(document, operationName)?.variableDefinitions ?? [];
  const compiled = definitions.some((d) => isRecursiveInput(typeFromAST(schema, d.type))) ? undefined : tryCompile(schema, document, operationName);
  if (!compiled) return (contextValue, variableValues) => execute({ schema, document, operationName, contextValue, variableValues });
  return (context, variables) => {
    // Variables are checked by graphql-js first, so a bad value is refused with exactly the error
    // (and Apollo's BAD_USER_INPUT mapping) it gets without the compiler.
    const checked = getVariableValues(schema, definitions, variables);
    return checked.errors ? { errors: checked.errors } : compiled.query(undefined, context, variables);
  };
}

function tryCompile(schema: GraphQLSchema, document: DocumentNode, operationName: string | null): CompiledQuery | undefined {
  try {
    const compiled = compileQuery(schema, document, operationName ?? undefined);
    return isCompiledQuery(compiled) ? compiled : undefined;
  } catch {
    return undefined;
  }
}

/** Whether an input type contains itself: graphql-jit would recurse until the stack overflows. */
function isRecursiveInput(type: GraphQLType | undefined, path: ReadonlySet<GraphQLInputObjectType> = new Set()): boolean {
  const named = type ? getNamedType(type) : undefined;
  if (!isInputObjectType(named)) return false;
  if (path.has(named)) return true;
  const inner = new Set(path).add(named);
  return Object.values(named.getFields()).some((field) => isRecursiveInput(field.type, inner));
}

/**
 * graphql-jit's errors only look like graphql-js's: their `extensions` may be missing, which
 * Apollo's error normalisation does not survive. Rebuilt as real GraphQLErrors, with the same
 * message, path, locations and original error, they format exactly as under graphql-js.
 */
function asGraphQLError(error: GraphQLError): GraphQLError {
  if (error.extensions) return error;
  const rebuilt = new GraphQLError(error.message, {
    path: error.path,
    originalError: error.originalError ?? undefined,
    extensions: (error.originalError as { extensions?: GraphQLError['extensions'] } | undefined)?.extensions,
  });
  (rebuilt as { locations?: GraphQLError['locations'] }).locations = error.locations;
  return rebuilt;
}
