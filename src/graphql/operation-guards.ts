import type { ApolloServerPlugin } from '@apollo/server';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import {
  GraphQLError,
  getNamedType,
  isLeafType,
  type DocumentNode,
  type GraphQLSchema,
  type ParseOptions,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import {
  fieldExtensionsEstimator,
  getComplexity,
  type ComplexityEstimator,
} from 'graphql-query-complexity';
import type { Config } from '../core/config';
import { HTTP_STATUS } from '../core/errors';

/**
 * The limits every operation must keep, whoever sends it: a client of /graphql or one of the
 * facades' own operations (they run through the same Apollo server).
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
  readonly validationRules: ValidationRule[];
  readonly plugin: ApolloServerPlugin;
  /** The estimated cost of one operation, or undefined when its variables are invalid. */
  cost(
    document: DocumentNode,
    operationName: string | null | undefined,
    variables: Record<string, unknown> | undefined,
  ): number | undefined;
}

export function operationGuards(
  schema: GraphQLSchema,
  config: Pick<Config, 'graphql' | 'pageSize'>,
): OperationGuards {
  const limits = config.graphql;
  // GraphQL Armor throws from inside validation by default; reported errors are ordinary
  // validation failures (400, GRAPHQL_VALIDATION_FAILED) listed with any others.
  const report = (context: ValidationContext | null, error: GraphQLError) =>
    context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, '')));
  const armor = { exposeLimits: true, propagateOnRejection: false, onReject: [report] };
  const estimators = [
    fieldExtensionsEstimator(),
    connectionEstimator(config.pageSize),
    objectEstimator,
  ];
  const cost: OperationGuards['cost'] = (document, operationName, variables) => {
    try {
      return getComplexity({
        schema,
        query: document,
        variables: variables ?? {},
        estimators,
        ...(operationName ? { operationName } : {}),
      });
    } catch (error) {
      // Invalid variables: execution refuses them with its own, better message.
      if (error instanceof GraphQLError) return undefined;
      throw error;
    }
  };

  return {
    cost,
    parseOptions: { maxTokens: limits.maxTokens },
    validationRules: [
      maxDepthRule({ ...armor, n: limits.maxDepth }),
      maxAliasesRule({ ...armor, n: limits.maxAliases }),
    ],
    plugin: {
      async requestDidStart() {
        return {
          async didResolveOperation({ request, document, operationName, operation }) {
            // Apollo would run a subscription over HTTP and fail on its stream: say where it lives.
            if (operation?.operation === 'subscription') {
              throw new GraphQLError(
                'Subscriptions are served over WebSocket (the graphql-ws protocol) at /graphql, not over HTTP',
                {
                  extensions: { code: 'BAD_REQUEST', http: { status: HTTP_STATUS.BAD_REQUEST } },
                },
              );
            }
            const estimate = cost(document, operationName, request.variables);
            if (estimate !== undefined && estimate > limits.maxCost) {
              throw new GraphQLError(
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
            }
          },
        };
      },
    },
  };
}

/** A connection (a field with `first` returning `…Connection`) holds up to a page of its selection. */
function connectionEstimator(pageSize: Config['pageSize']): ComplexityEstimator {
  return ({ field, args, childComplexity }) => {
    if (
      !field.args.some((a) => a.name === 'first') ||
      !getNamedType(field.type).name.endsWith('Connection')
    )
      return undefined;
    const first =
      typeof args.first === 'number' && args.first > 0
        ? Math.min(args.first, pageSize.max)
        : pageSize.default;
    return 1 + first * childComplexity;
  };
}

/** Scalars and enums are free; an object costs one plus what is selected inside it. */
const objectEstimator: ComplexityEstimator = ({ field, childComplexity }) =>
  isLeafType(getNamedType(field.type)) ? 0 : 1 + childComplexity;
