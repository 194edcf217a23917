import type { ApolloServerPlugin } from '@apollo/server';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import {
  GraphQLError,
  Kind,
  getNamedType,
  getOperationAST,
  isLeafType,
  parse,
  specifiedRules,
  validate,
  type ASTVisitor,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ParseOptions,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import {
  fieldExtensionsEstimator,
  getComplexity,
  type ComplexityEstimator,
  type ComplexityEstimatorArgs,
} from 'graphql-query-complexity';
import type { Config } from '../core/config';
import { WrittenNodes } from '../core/node-writer';
import { AppError, HTTP_STATUS } from '../core/errors';
import { refusalError } from './format-error';
import type { RequestContext, ThrottleStatus } from '../core/request-context';
import { oneOfVariablesRule } from './one-of-variables-rule';

/**
 * The limits every operation must keep, whoever sends it and however: a client of /graphql, one of
 * the facades' own operations (they run through the same Apollo server), or an operation sent over
 * a WebSocket (subscription-server.ts, which runs `prepare`). Written once here: Apollo takes the
 * parse options, the validation rules and the plugin; the WebSocket takes `prepare`, which applies
 * the same ones with the same error codes.
 *
 * - tokens: graphql-js stops parsing past `maxTokens`, before a huge document costs anything;
 * - depth and aliases: validation rules of GraphQL Armor, run once per distinct document (Apollo
 *   caches validated documents);
 * - cost: graphql-query-complexity, per request, because page sizes come from variables.
 *
 * The cost model is Shopify's: a scalar or enum costs 0, an object 1 plus its selection, and a
 * list of objects its expected length times that. A connection's length is its `first` (or the
 * default page size); a plain list field declares its expected length with type-graphql's
 * `complexity` (see `listComplexity`). So the cost approximates how many objects an answer can hold.
 */
export interface OperationGuards {
  readonly parseOptions: ParseOptions;
  /** Depth, aliases and non-null variables in `@oneOf` literals; in production also no introspection. */
  readonly validationRules: ValidationRule[];
  /** For Apollo: the cost limit, no "Did you mean" in production, no subscription over HTTP. */
  readonly plugin: ApolloServerPlugin;
  /** The estimated cost of one operation, or undefined when its variables are invalid. */
  cost(
    document: DocumentNode,
    operationName: string | null | undefined,
    variables: Record<string, unknown> | undefined,
  ): number | undefined;
  /** The estimate with the root pages it counted, to price what the answer read. */
  price(
    document: DocumentNode,
    operationName: string | null | undefined,
    variables: Record<string, unknown> | undefined,
  ): Price | undefined;
  /**
   * Everything above for a transport that executes with graphql-js itself: parses, validates and
   * prices one request, and answers its document and operation or the errors Apollo would give
   * (GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED, OPERATION_RESOLUTION_FAILURE).
   */
  prepare(request: OperationRequest): PreparedRequest | { errors: readonly GraphQLError[] };
}

export interface OperationRequest {
  readonly query: string;
  readonly operationName?: string | null | undefined;
  readonly variables?: Record<string, unknown> | null | undefined;
}

export interface PreparedRequest {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
}

export function operationGuards(
  schema: GraphQLSchema,
  config: Pick<Config, 'graphql' | 'pageSize' | 'env'>,
): OperationGuards {
  const limits = config.graphql;
  // In production the schema is not for browsing: no introspection, and no "Did you mean …?"
  // suggestions that would spell out field names one typo at a time.
  const production = config.env === 'production';
  // GraphQL Armor throws from inside validation by default; reported errors are ordinary
  // validation failures (400, GRAPHQL_VALIDATION_FAILED) listed with any others.
  const report = (context: ValidationContext | null, error: GraphQLError) =>
    context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, '')));
  const armor = { exposeLimits: true, propagateOnRejection: false, onReject: [report] };
  const query = schema.getQueryType();
  const price: OperationGuards['price'] = (document, operationName, variables) => {
    const pages = new Map<string, RootPage>();
    const estimators = [
      fieldExtensionsEstimator(),
      connectionEstimator(config.pageSize, (args, page) => {
        if (args.type === query) pages.set(args.node.alias?.value ?? args.node.name.value, page);
      }),
      objectEstimator,
    ];
    try {
      const cost = getComplexity({
        schema,
        query: document,
        variables: variables ?? {},
        estimators,
        ...(operationName ? { operationName } : {}),
      });
      return { cost, pages };
    } catch (error) {
      // Invalid variables: execution refuses them with its own, better message.
      if (error instanceof GraphQLError) return undefined;
      throw error;
    }
  };
  const cost: OperationGuards['cost'] = (...args) => price(...args)?.cost;

  const overCost = (estimate: number | undefined): GraphQLError | undefined => {
    if (estimate === undefined || estimate <= limits.maxCost) return undefined;
    return new GraphQLError(
      `The operation may return about ${estimate} objects, more than the limit of ${limits.maxCost}: ask for smaller pages (first) or fewer nested lists`,
      {
        extensions: {
          code: 'GRAPHQL_VALIDATION_FAILED',
          cost: estimate,
          maxCost: limits.maxCost,
          http: { status: 400 },
        },
      },
    );
  };
  // Apollo's own way (its DisableSuggestions plugin), applied to validation errors only.
  const withoutSuggestions = (errors: readonly Error[]): void => {
    if (production)
      for (const error of errors)
        error.message = error.message.replace(/ ?Did you mean(.+?)\?$/, '');
  };
  const parseOptions: ParseOptions = { maxTokens: limits.maxTokens };
  const validationRules: ValidationRule[] = [
    // Depth counts fields: a fragment spread or inline fragment adds no level, or Relay's
    // generated queries (a fragment per component, spread into one another) would pass the limit
    // at a modest field depth. Fragments are still followed, each depth once (no cycle loops).
    maxDepthRule({ ...armor, n: limits.maxDepth, flattenFragments: true }),
    maxAliasesRule({ ...armor, n: limits.maxAliases }),
    ...(production ? [noIntrospection] : []),
    oneOfVariablesRule,
  ];
  const coded = (error: GraphQLError, code: string) =>
    new GraphQLError(error.message, {
      nodes: error.nodes,
      source: error.source,
      positions: error.positions,
      path: error.path,
      originalError: error.originalError,
      extensions: { ...error.extensions, code },
    });

  return {
    cost,
    price,
    parseOptions,
    validationRules,
    prepare: ({ query, operationName, variables }) => {
      let document: DocumentNode;
      try {
        document = parse(query, parseOptions);
      } catch (error) {
        if (!(error instanceof GraphQLError)) throw error;
        return { errors: [coded(error, 'GRAPHQL_PARSE_FAILED')] };
      }
      const invalid = validate(schema, document, [...specifiedRules, ...validationRules]);
      if (invalid.length) {
        withoutSuggestions(invalid);
        return { errors: invalid.map((e) => coded(e, 'GRAPHQL_VALIDATION_FAILED')) };
      }
      const operation = getOperationAST(document, operationName);
      if (!operation)
        return {
          errors: [
            new GraphQLError(
              operationName
                ? `Unknown operation named "${operationName}".`
                : 'Must provide operation name if query contains multiple operations.',
              { extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } },
            ),
          ],
        };
      const refusal = overCost(cost(document, operationName, variables ?? undefined));
      return refusal ? { errors: [refusal] } : { document, operation };
    },
    plugin: {
      async requestDidStart() {
        let requested: Price | undefined;
        let actualQueryCost: number | undefined;
        let throttleStatus: ThrottleStatus | undefined;
        let refund: ((points: number) => ThrottleStatus) | undefined;
        return {
          async validationDidStart() {
            return async (errors) => {
              if (errors) withoutSuggestions(errors);
            };
          },
          async didResolveOperation({ request, document, operationName, operation, contextValue }) {
            // Apollo would run a subscription over HTTP and fail on its stream: say where it lives.
            if (operation?.operation === 'subscription') {
              throw new GraphQLError(
                'Subscriptions are served over WebSocket (the graphql-ws protocol) at /graphql, not over HTTP',
                {
                  extensions: { code: 'BAD_REQUEST', http: { status: HTTP_STATUS.BAD_REQUEST } },
                },
              );
            }
            const keyed = (contextValue as Partial<RequestContext>).idempotencyKey !== undefined;
            if (keyed && operation?.operation === 'mutation') {
              const fields = rootFieldNames(operation, document);
              if (fields.length > 1) throw keyedRequestOfManyFields(fields);
            }
            requested = price(document, operationName, request.variables);
            const refusal = overCost(requested?.cost);
            if (refusal) throw refusal;
            // Then its cost comes out of the caller's budgets (invalid variables: execution
            // refuses the operation, which costs nothing).
            const throttle = (contextValue as Partial<RequestContext>).throttle;
            if (throttle && requested !== undefined) {
              const charged = await throttle(requested.cost).catch((error: unknown) => {
                // A database that cannot answer: SERVICE_UNAVAILABLE, as in the context.
                throw error instanceof AppError ? refusalError(error) : error;
              });
              throttleStatus = charged.status;
              refund = charged.refund;
              if (charged.refusal) throw refusalError(charged.refusal);
            }
          },
          async willSendResponse({ response }) {
            if (response.body.kind !== 'single') return;
            const result = response.body.singleResult;
            // What the answer read; the rest of the charge is given back.
            if (requested && 'data' in result) {
              actualQueryCost = actualCost(requested, result.data);
              const unread = requested.cost - actualQueryCost;
              if (refund && unread > 0) throttleStatus = refund(unread);
            }
            const extensions = costExtension(
              requested?.cost,
              actualQueryCost,
              limits.maxCost,
              throttleStatus,
            );
            if (!extensions) return;
            result.extensions = { ...result.extensions, cost: extensions };
          },
        };
      },
    },
  };
}

/**
 * The response keys of an operation's root fields (aliases, through fragments), without
 * `__typename`, which writes nothing.
 */
function rootFieldNames(operation: OperationDefinitionNode, document: DocumentNode): string[] {
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const names = new Set<string>();
  const visit = (selections: SelectionSetNode, seen: Set<string>): void => {
    for (const selection of selections.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value !== '__typename')
          names.add(selection.alias?.value ?? selection.name.value);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet, seen);
      } else if (!seen.has(selection.name.value)) {
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(fragment.selectionSet, new Set([...seen, selection.name.value]));
      }
    }
  };
  visit(operation.selectionSet, new Set());
  return [...names];
}

/**
 * A key stands for one write, claimed in that write's transaction; the mutation fields of one
 * operation each run in a transaction of their own. So a keyed operation of several would keep
 * the first field's write when a later one fails, and a retry could neither replay nor redo it
 * as a whole. Refused before anything runs.
 */
function keyedRequestOfManyFields(fields: readonly string[]): GraphQLError {
  return new GraphQLError(
    `A request with an Idempotency-Key may run one mutation field; this one runs ${fields.length} (${fields.join(', ')}). Send each as a request of its own, with a key of its own`,
    { extensions: { code: 'BAD_REQUEST', http: { status: HTTP_STATUS.BAD_REQUEST } } },
  );
}

/**
 * `extensions.cost` of an answer, shaped like Shopify's: what the operation was estimated to cost
 * (the same estimate the cost limit refuses by, `maximumQueryCost` for one operation), what it
 * cost once answered (`actualQueryCost`: its root pages at the rows they showed) and where the
 * caller's cost budget stands once charged that (or refused): a leaky bucket of
 * `maximumAvailable` points restoring `restoreRate` a second, the user's or the account's,
 * whichever has less left (`scope`). The same numbers are in the RateLimit headers.
 */
function costExtension(
  requestedQueryCost: number | undefined,
  actualQueryCost: number | undefined,
  maximumQueryCost: number,
  throttleStatus: ThrottleStatus | undefined,
): Record<string, unknown> | undefined {
  if (requestedQueryCost === undefined && !throttleStatus) return undefined;
  return {
    ...(requestedQueryCost === undefined ? {} : { requestedQueryCost }),
    ...(actualQueryCost === undefined ? {} : { actualQueryCost }),
    ...(requestedQueryCost === undefined ? {} : { maximumQueryCost }),
    ...(throttleStatus ? { throttleStatus } : {}),
  };
}

/** A root connection the estimate counted at `first` rows of `child` points each. */
interface RootPage {
  readonly first: number;
  readonly child: number;
}

/** An operation's estimate, with the root pages it counted by their response keys. */
export interface Price {
  readonly cost: number;
  readonly pages: ReadonlyMap<string, RootPage>;
}

/**
 * What an answer cost (Shopify's `actualQueryCost`): the estimate less, for each root page, the
 * rows it did not fill. Nested pages stay at their estimate: the answer is not walked for them
 * (a compiled one is text), so the charge is never below what was read.
 */
export function actualCost(price: Price, data: Record<string, unknown> | null | undefined): number {
  let cost = price.cost;
  for (const [key, page] of price.pages) {
    const shown = pageLength(data?.[key]);
    if (shown !== undefined && shown < page.first) cost -= (page.first - shown) * page.child;
  }
  return cost;
}

/**
 * The rows a root connection's value shows: its nodes (as values, or written already for an
 * in-process caller) or edges, or what a compiled answer's placeholder counted; none for null (the field failed). Undefined when its selection shows no
 * rows to count (then its estimate stands).
 */
function pageLength(value: unknown): number | undefined {
  if (value === null) return 0;
  if (typeof value !== 'object' || value === undefined) return undefined;
  const { nodes, edges, shown } = value as { nodes?: unknown; edges?: unknown; shown?: unknown };
  if (Array.isArray(nodes) || nodes instanceof WrittenNodes) return nodes.length;
  if (Array.isArray(edges)) return edges.length;
  return typeof shown === 'number' ? shown : undefined;
}

/**
 * A connection (a field with `first` returning `…Connection`) holds up to a page of its selection;
 * `counted` hears each page it prices.
 */
function connectionEstimator(
  pageSize: Config['pageSize'],
  counted: (args: ComplexityEstimatorArgs, page: RootPage) => void,
): ComplexityEstimator {
  return (estimated) => {
    const { field, args, childComplexity } = estimated;
    if (
      !field.args.some((a) => a.name === 'first') ||
      !getNamedType(field.type).name.endsWith('Connection')
    )
      return undefined;
    // `last` sizes a page read backwards as `first` does one read forwards.
    const size = typeof args.first === 'number' ? args.first : args.last;
    const first =
      typeof size === 'number' && size > 0 ? Math.min(size, pageSize.max) : pageSize.default;
    counted(estimated, { first, child: childComplexity });
    return 1 + first * childComplexity;
  };
}

/** Scalars and enums are free; an object costs one plus what is selected inside it. */
const objectEstimator: ComplexityEstimator = ({ field, childComplexity }) =>
  isLeafType(getNamedType(field.type)) ? 0 : 1 + childComplexity;

/**
 * Introspection refused at its two entry points, `__schema` and `__type`, as Apollo's own rule
 * does (that one is internal to Apollo; graphql-js's NoSchemaIntrospectionCustomRule reports every
 * field of an introspection type, one error per level). `__typename` stays allowed.
 */
function noIntrospection(context: ValidationContext): ASTVisitor {
  return {
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type')
        context.reportError(
          new GraphQLError(
            'GraphQL introspection is not allowed in production, but the query contained __schema or __type',
            { nodes: [node] },
          ),
        );
    },
  };
}
