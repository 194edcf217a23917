import {
  getArgumentValues,
  getNamedType,
  getOperationAST,
  getVariableValues,
  isObjectType,
  Kind,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { collectFields } from 'graphql/execution/collectFields';
import type { RequestContext } from '../../core/request-context';
import type { CompiledList, ListArgs } from '../../modules/paging/graphql';
import { connectionJson } from './connection-json';
import { connectionRows, objectRows } from './connection-rows';
import type { LeafValue } from './json-values';
import { entityOf, inExecutorOrder, type CompileScope, type PageArgs } from './object-json';

/** Runs one operation with a context and variables (graphql/jit-gateway.ts's runner). */
export type Runner = (
  context: unknown,
  variables: Record<string, unknown>,
) => Promise<ExecutionResult> | ExecutionResult;

const listsOf = new WeakMap<GraphQLSchema, ReadonlyMap<string, CompiledList>>();

/** The root lists reads compiled to SQL answer on `schema`, by field (`Query.shifts`). */
export function registerCompiledLists(
  schema: GraphQLSchema,
  lists: ReadonlyMap<string, CompiledList>,
): void {
  listsOf.set(schema, lists);
}

/**
 * Wraps the executor's runner of a query: each root field whose selection compiles (a registered
 * list whose every selected field has an SQL form) is answered by one SQL statement that writes its
 * JSON; the others run on the executor, over a document of just those fields. A field whose
 * arguments the executor would refuse (a bad cursor, a hidden parent, a filter on a hidden field),
 * or whose statement fails, runs on the executor too, which answers it with exactly its error.
 */
export function withCompiledReads(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null,
  executor: (document: DocumentNode) => Runner,
): Runner {
  const whole = executor(document);
  const lists = listsOf.get(schema);
  const operation = getOperationAST(document, operationName);
  const query = schema.getQueryType();
  if (!lists || !operation || operation.operation !== 'query' || !query) return whole;
  const rootNames = new Set(
    operation.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : [])),
  );
  if (![...rootNames].some((name) => lists.has(`Query.${name}`))) return whole;
  const fragments = Object.fromEntries(
    document.definitions.flatMap((d) =>
      d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [],
    ),
  ) as Record<string, FragmentDefinitionNode>;
  const partial = new Map<string, Runner>();
  const runnerOf = (executed: readonly string[]) => {
    const key = executed.join(',');
    let runner = partial.get(key);
    if (!runner) partial.set(key, (runner = executor(onlyFields(document, operation, executed))));
    return runner;
  };

  return async (context, variables) => {
    const ctx = context as RequestContext;
    if (!ctx.config.graphql.compiledReads) return whole(context, variables);
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
    if (coerced.errors) return whole(context, variables);
    const fields = inExecutorOrder(
      { schema, fragments },
      query,
      [operation.selectionSet],
      collectFields(schema, fragments, coerced.coerced, query, operation.selectionSet),
    );
    let aliases = 0;
    const scope: CompileScope = {
      schema,
      fragments,
      variables: coerced.coerced,
      ctx,
      metadata: ctx.em.getMetadata(),
      knex: ctx.em.getKnex(),
      lists,
      connection: connectionJson,
      alias: () => `r${aliases++}`,
    };
    const answers = new Map<string, unknown>();
    for (const [key, nodes] of fields) {
      const list = lists.get(`Query.${nodes[0]!.name.value}`);
      const answer = list && (await compiledField(scope, list, nodes));
      if (answer)
        answers.set(
          key,
          'json' in answer ? ctx.rawJson!.placeholder(answer.json, answer.shown) : answer.value,
        );
    }
    if (answers.size === 0) return whole(context, variables);
    const executed = [...fields.keys()].filter((key) => !answers.has(key));
    if (executed.length === 0) return { data: Object.fromEntries(answers) };
    // Root fragments cannot be split by response key: the executor answers the whole operation.
    if (operation.selectionSet.selections.some((s) => s.kind !== Kind.FIELD))
      return whole(context, variables);
    const rest = await runnerOf(executed)(context, variables);
    if (!rest.data) return rest;
    const data = Object.fromEntries(
      [...fields.keys()].map((key) => [key, answers.has(key) ? answers.get(key) : rest.data![key]]),
    );
    return rest.errors ? { data, errors: rest.errors } : { data };
  };
}

/**
 * The answer of one compiled root list (its JSON text over HTTP, its value in the process), or
 * undefined for the executor to answer it.
 */
async function compiledField(
  scope: CompileScope,
  list: CompiledList,
  nodes: readonly FieldNode[],
): Promise<
  | { readonly json: string; readonly shown: number | undefined }
  | { readonly value: unknown }
  | undefined
> {
  const query = scope.schema.getQueryType()!;
  const field = query.getFields()[nodes[0]!.name.value]!;
  let plan;
  try {
    const args = getArgumentValues(field, nodes[0]!, scope.variables) as ListArgs & PageArgs;
    const source = await list(scope.ctx, args);
    // A lookup answers an object of an entity type; a list, its connection.
    const type = getNamedType(field.type);
    plan =
      isObjectType(type) && entityOf(scope, type)
        ? await objectRows(scope, field, nodes, source)
        : await connectionRows(scope, field, nodes, source, args);
  } catch {
    // Arguments the list refuses: the executor answers with that error, at the field's path.
    counts.refused += 1;
    return undefined;
  }
  if (!plan) {
    counts.uncompiled += 1;
    return undefined;
  }
  const { em, log } = scope.ctx;
  try {
    const rows = await em
      .getConnection()
      .execute<Record<string, LeafValue>[]>(
        plan.statement.text,
        [...plan.statement.params],
        'all',
        em.getTransactionContext(),
      );
    // Over HTTP the text goes into the answer as it is; a caller in the process (the facade, a
    // WebSocket) reads values.
    const answer = scope.ctx.rawJson ? plan.write(rows) : plan.read(rows);
    if (answer === undefined) {
      // A lookup that found nothing: the executor answers it with its error.
      counts.refused += 1;
      return undefined;
    }
    counts.compiled += 1;
    return scope.ctx.rawJson
      ? { json: answer as string, shown: plan.shown?.(rows) }
      : { value: answer };
  } catch (error) {
    // A statement that fails is a bug of the compiler or an outage; the executor meets the
    // outage again and answers it as it always does.
    counts.failed += 1;
    log.warn({ err: error, field: field.name }, 'compiled read failed; executing it instead');
    return undefined;
  }
}

/**
 * How the root lists of this process were answered: compiled, refused (the executor answered the
 * arguments' error), uncompiled (a selected field has no SQL form) or failed. The differential
 * test reads it to know that the compiled path answered what it compared.
 */
export const counts = { compiled: 0, refused: 0, uncompiled: 0, failed: 0 };

/** The operation with only the root fields of these response keys (and every fragment). */
function onlyFields(
  document: DocumentNode,
  operation: OperationDefinitionNode,
  keys: readonly string[],
): DocumentNode {
  const kept = new Set(keys);
  const selections = operation.selectionSet.selections.filter(
    (s) => s.kind === Kind.FIELD && kept.has(s.alias?.value ?? s.name.value),
  );
  return {
    ...document,
    definitions: document.definitions.map((d) =>
      d === operation
        ? { ...operation, selectionSet: { ...operation.selectionSet, selections } }
        : d,
    ),
  };
}
