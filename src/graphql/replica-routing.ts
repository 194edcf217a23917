import type { Knex } from '@mikro-orm/postgresql';
import {
  GraphQLError,
  Kind,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { AppError } from '../core/errors';
import { renewedContext, type RequestContext } from '../core/request-context';
import { callerPosition, recordCallerPosition } from '../db/caller-positions';
import { isConnectionFailure } from '../db/database-errors';
import type { ReadReplicas } from '../db/read-replicas';
import type { ExecutionAround } from './jit-gateway';

/** Read on a replica whatever their size: the reads that are heavy by nature. */
const HEAVY_READS = new Set(['report']);
/** Lists read on a replica when they ask for at least REPLICA_LIST_ROWS rows. */
const LISTS = new Set(['activities', 'companies', 'projects', 'shifts', 'staff']);
/**
 * Read on the primary, with whatever else the operation asks: the sync watermark is the oldest
 * transaction in flight on the primary, and `deletions` purges old tombstones (a write).
 */
const PRIMARY_ONLY = new Set(['syncWatermark', 'deletions']);
/**
 * After these the caller's position is recorded, as after a write: a client that syncs from the
 * watermark must then read every row committed before it, on whichever replica.
 */
const POSITION_READS = new Set(['syncWatermark']);

type ReadRoute = 'replica' | 'primary' | 'records-position';

/**
 * Where an operation reads (issue 24): a query whose root fields are a report, or a list asking
 * for many rows, goes to a replica, unless it also asks for something only the primary may answer.
 * Everything else reads the primary; a mutation, or a read of the sync watermark, then records the
 * caller's position.
 */
export function readRouteOf(
  operation: OperationDefinitionNode,
  document: DocumentNode,
  variables: Record<string, unknown>,
  rows: { listRows: number; defaultPageSize: number },
): ReadRoute {
  if (operation.operation === 'mutation') return 'records-position';
  if (operation.operation !== 'query') return 'primary';
  const fields = rootFields(operation.selectionSet, document);
  if (fields.some((field) => POSITION_READS.has(field.name.value))) return 'records-position';
  if (fields.some((field) => PRIMARY_ONLY.has(field.name.value))) return 'primary';
  const heavy = fields.some(
    (field) =>
      HEAVY_READS.has(field.name.value) ||
      (LISTS.has(field.name.value) &&
        pageSizeOf(field, operation, variables, rows.defaultPageSize) >= rows.listRows),
  );
  return heavy ? 'replica' : 'primary';
}

/**
 * Runs each operation where readRouteOf says. A read on a replica goes to one that has replayed
 * the caller's position (callerPosition) and lags at most REPLICA_MAX_LAG_MS; when there is none,
 * or the replica fails under the read (stopped, restarted, a conflict with its recovery), the
 * operation runs again on the primary: it only read, so running it twice changes nothing, and
 * the caller gets an answer, not a 503. The later reads of one request (an export's pages) go
 * where its first one went (RequestContext.readSource), or to the primary.
 */
export function replicaRouting(deps: {
  replicas: ReadReplicas;
  primary: Knex;
  listRows: number;
  defaultPageSize: number;
}): ExecutionAround {
  return async ({ operation, document, variables, context }, run) => {
    const ctx = context as RequestContext;
    const route = readRouteOf(operation, document, variables, deps);
    if (route === 'replica' && ctx.readSource?.name !== PRIMARY && deps.replicas.available) {
      const answer = await readOnReplica(deps, ctx, run);
      if (answer) return answer;
    }
    if (route === 'replica' && ctx.readSource) ctx.readSource.name = PRIMARY;
    try {
      return await run(ctx);
    } finally {
      if (route === 'records-position') await recordPosition(deps.primary, ctx);
    }
  };
}

/** The name a request's reads are pinned to when they went to the primary. */
const PRIMARY = 'primary';

async function readOnReplica(
  deps: { replicas: ReadReplicas; primary: Knex },
  ctx: RequestContext,
  run: (context: RequestContext) => Promise<ExecutionResult>,
): Promise<ExecutionResult | undefined> {
  let seen: bigint;
  try {
    seen =
      ctx.readSource?.seen ??
      (await callerPosition(deps.primary, ctx.viewer.accountId, ctx.viewer.id));
  } catch {
    // The primary did not answer: the read there answers the catalogue's 503 itself.
    return undefined;
  }
  const replica = deps.replicas.choose(seen, ctx.readSource?.name);
  if (!replica) return undefined;
  let result: ExecutionResult;
  try {
    result = await run(renewedContext(ctx, replica.orm.em));
  } catch (error) {
    result = {
      errors: [new GraphQLError((error as Error).message, { originalError: error as Error })],
    };
  }
  const failures = (result.errors ?? [])
    .map((error) => error.originalError)
    .filter(isReplicaFailure);
  if (failures.length === 0) {
    deps.replicas.served(replica);
    if (ctx.readSource) {
      ctx.readSource.name = replica.name;
      ctx.readSource.seen = seen;
    }
    return result;
  }
  deps.replicas.failed(replica, failures.some(isConnectionFailure));
  ctx.log.warn(
    { replica: replica.name, err: failures[0] },
    `a read on replica ${replica.name} failed; it runs again on the primary`,
  );
  return undefined;
}

/**
 * Whether an operation's error came from the replica's database and may not on the primary: a
 * lost connection, a conflict with the replica's recovery (40001), a refused write (25006), a full
 * pool. Not the caller's own mistakes (the catalogue's errors, invalid variables), and not a
 * statement that ran out of time: it would take as long on the primary.
 */
function isReplicaFailure(error: Error | undefined): error is Error {
  if (!error || error instanceof AppError) return false;
  if (isConnectionFailure(error) || error.name === 'KnexTimeoutError') return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code !== STATEMENT_TIMEOUT;
}

const STATEMENT_TIMEOUT = '57014';

/**
 * After the commit (or the watermark read): the position lies at or after it. Reads of this
 * request from here on decide afresh. Should the primary fail right here, the write has answered
 * already; it is logged, and the caller's reads go where their last recorded position allows.
 */
async function recordPosition(primary: Knex, ctx: RequestContext): Promise<void> {
  if (ctx.readSource) {
    ctx.readSource.name = undefined;
    ctx.readSource.seen = undefined;
  }
  await recordCallerPosition(primary, ctx.viewer.accountId, ctx.viewer.id).catch((error: unknown) =>
    ctx.log.warn({ err: error }, 'the caller position was not recorded'),
  );
}

/** The operation's root fields, through fragments and inline fragments. */
function rootFields(selectionSet: SelectionSetNode, document: DocumentNode): FieldNode[] {
  const fields: FieldNode[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) fields.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT)
      fields.push(...rootFields(selection.selectionSet, document));
    else {
      const fragment = document.definitions.find(
        (definition) =>
          definition.kind === Kind.FRAGMENT_DEFINITION &&
          definition.name.value === selection.name.value,
      );
      if (fragment?.kind === Kind.FRAGMENT_DEFINITION)
        fields.push(...rootFields(fragment.selectionSet, document));
    }
  }
  return fields;
}

/** The rows a list field asks for: its `first` or `last`, else the default page. */
function pageSizeOf(
  field: FieldNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  defaultPageSize: number,
): number {
  let size = defaultPageSize;
  for (const argument of field.arguments ?? []) {
    if (argument.name.value !== 'first' && argument.name.value !== 'last') continue;
    const value = intOf(argument.value, operation, variables);
    if (value !== undefined) size = value;
  }
  return size;
}

/** An Int argument's value: a literal, or a variable as given or by its default. */
function intOf(
  value: ValueNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): number | undefined {
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind !== Kind.VARIABLE) return undefined;
  const name = value.name.value;
  if (typeof variables[name] === 'number') return variables[name];
  const fallback = operation.variableDefinitions?.find(
    (definition) => definition.variable.name.value === name,
  )?.defaultValue;
  return fallback?.kind === Kind.INT ? Number(fallback.value) : undefined;
}
