import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { MapperKind, mapSchema } from '@graphql-tools/utils';
import {
  coerceInputValue,
  execute,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  GraphQLScalarType,
  isInputObjectType,
  valueFromAST,
  visit,
  type DocumentNode,
  type ExecutionResult,
  type OperationDefinitionNode,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { withCompiledReads, type Runner } from './compiled-reads';
import { requiredFieldsCheck } from './required-input-fields';

/**
 * Wraps the execution of each operation: `run` executes it with a context (the request's own, or
 * another, such as one reading a replica), as often as the wrapper needs.
 */
export type ExecutionAround = (
  request: {
    readonly operation: OperationDefinitionNode;
    readonly document: DocumentNode;
    readonly variables: Record<string, unknown>;
    readonly context: unknown;
  },
  run: (context: unknown) => Promise<ExecutionResult>,
) => Promise<ExecutionResult>;

/**
 * Runs operations with graphql-jit instead of graphql-js, through Apollo's gateway hook: Apollo
 * still parses, validates (with its document cache), formats errors and runs plugins; only the
 * execution of a validated document changes. graphql-jit compiles each operation once into a
 * function that walks the selection without graphql-js's per-field bookkeeping.
 *
 * graphql-jit's own coercion of input objects falls short: on a recursive type (our filters
 * nest `and`/`or`/`not`) it recurses until the stack overflows (zalando-incubator/graphql-jit#175),
 * and it does not apply input-field defaults (`direction` of an order). So it compiles against a
 * copy of the schema in which every input object type is a scalar of the same name whose parsing
 * is graphql-js's own coercion to the real type: resolvers receive exactly the values they get
 * from graphql-js. The one case this cannot express, a variable inside an input-object literal
 * (`filter: { start: { gt: $from } }`), and any operation the compiler refuses run on graphql-js.
 *
 * That copy must never describe itself: graphql-jit answers `__schema` and `__type` from the schema
 * it compiled against, which would report every input object as a SCALAR (and codegen, IDEs and
 * schema diffs would see a different schema from schema/schema.graphql). So an operation that
 * introspects runs on graphql-js against the real schema; `__typename` is the same in both and
 * stays compiled.
 *
 * A runner is kept per parsed document (Apollo caches one document per query text) and
 * operation name. `around`, when given, wraps each execution (replica-routing.ts).
 */
export function jitGateway(schema: GraphQLSchema, around?: ExecutionAround): GatewayInterface {
  const jitSchema = withInputObjectsAsScalars(schema);
  const runners = new WeakMap<DocumentNode, Map<string, Runner>>();

  function runnerFor(document: DocumentNode, operationName: string | null): Runner {
    let byName = runners.get(document);
    if (!byName) runners.set(document, (byName = new Map()));
    const key = operationName ?? '';
    let runner = byName.get(key);
    if (!runner) {
      runner = withCompiledReads(schema, document, operationName, (executed) =>
        compile(schema, jitSchema, executed, operationName),
      );
      byName.set(key, runner);
    }
    return runner;
  }

  const executor: GatewayExecutor = async (request) => {
    const runner = runnerFor(request.document, request.operationName);
    const variables = request.request.variables ?? {};
    const run = async (context: unknown) => runner(context, variables);
    const result = around
      ? await around(
          {
            operation: request.operation,
            document: request.document,
            variables,
            context: request.context,
          },
          run,
        )
      : await run(request.context);
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

function compile(
  schema: GraphQLSchema,
  jitSchema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null,
): Runner {
  const definitions = getOperationAST(document, operationName)?.variableDefinitions ?? [];
  const run = compileOperation(schema, jitSchema, document, operationName, definitions);
  const check = requiredFieldsCheck(schema, definitions);
  if (!check) return run;
  return (context, variables) => {
    const missing = check(variables);
    return missing ? { errors: [missing] } : run(context, variables);
  };
}

function compileOperation(
  schema: GraphQLSchema,
  jitSchema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null,
  definitions: readonly VariableDefinitionNode[],
): Runner {
  const compiled =
    hasVariableInsideInputLiteral(document) || introspects(document)
      ? undefined
      : tryCompile(jitSchema, document, operationName);
  if (!compiled)
    return (contextValue, variableValues) =>
      execute({ schema, document, operationName, contextValue, variableValues });
  return (context, variables) => {
    // Variables are checked by graphql-js first, so a bad value is refused with exactly the error
    // (and Apollo's BAD_USER_INPUT mapping) it gets without the compiler.
    const checked = getVariableValues(schema, definitions, variables);
    return checked.errors
      ? { errors: checked.errors }
      : compiled.query(undefined, context, variables);
  };
}

function tryCompile(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null,
): CompiledQuery | undefined {
  try {
    const compiled = compileQuery(schema, document, operationName ?? undefined);
    return isCompiledQuery(compiled) ? compiled : undefined;
  } catch {
    return undefined;
  }
}

/** The schema graphql-jit compiles against: input object types become coercing scalars. */
function withInputObjectsAsScalars(schema: GraphQLSchema): GraphQLSchema {
  // A TYPE mapper, not an INPUT_OBJECT_TYPE one: only it may return a type of another kind.
  return mapSchema(schema, {
    [MapperKind.TYPE]: (type) =>
      isInputObjectType(type)
        ? new GraphQLScalarType({
            name: type.name,
            parseValue: (value) => coerceInputValue(value, type),
            parseLiteral: (node, variables) => valueFromAST(node, type, variables),
          })
        : undefined,
  });
}

/** Whether the document asks for `__schema` or `__type` (in any operation or fragment). */
function introspects(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field: (node) => {
      if (node.name.value === '__schema' || node.name.value === '__type') found = true;
    },
  });
  return found;
}

/** Whether an input-object literal holds a variable: its stand-in scalar cannot see it. */
function hasVariableInsideInputLiteral(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    ObjectValue: (node) => {
      visit(node, { Variable: () => void (found = true) });
      return false;
    },
  });
  return found;
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
    extensions: (error.originalError as { extensions?: GraphQLError['extensions'] } | undefined)
      ?.extensions,
  });
  (rebuilt as { locations?: GraphQLError['locations'] }).locations = error.locations;
  return rebuilt;
}
