import 'reflect-metadata';
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLSchema,
  lexicographicSortSchema,
  printSchema,
} from 'graphql';
import { MapperKind, mapSchema } from '@graphql-tools/utils';
import { createPubSub } from '@graphql-yoga/subscription';
import { buildSchema, type ContainerType, type PubSub } from 'type-graphql';
import { ACTIVITY_LISTS, ACTIVITY_RESOLVERS } from '../modules/activities/graphql';
import { maskDeclaredFields, ONE_OF_INPUT_TYPES } from '../modules/common';
import { MODULES, type ModuleName } from '../modules';
import type { ResolverRegistration } from '../core/module-definition';
import { COMPANY_LISTS, COMPANY_RESOLVERS } from '../modules/companies/graphql';
import { ERROR_CODES, ERROR_MEANINGS, HTTP_STATUS } from '../core/errors';
import { APOLLO_CODES } from './format-error';
import { EVENT_RESOLVERS, registerShiftEventSource } from '../modules/events/graphql';
import { NODE_RESOLVERS } from '../modules/nodes/graphql';
import { SYNC_RESOLVERS } from '../modules/sync/graphql';
import { OAUTH_RESOLVERS } from '../modules/oauth/graphql';
import { PROJECT_LISTS, PROJECT_RESOLVERS } from '../modules/projects/graphql';
import { RATE_RESOLVERS } from '../modules/rates/graphql';
import { REPORT_RESOLVERS } from '../modules/reports/graphql';
import { SHIFT_LISTS, SHIFT_RESOLVERS } from '../modules/shifts/graphql';
import { STAFF_LISTS, STAFF_RESOLVERS } from '../modules/staff/graphql';
import { TIME_ZONE_RESOLVERS } from '../modules/time-zones/graphql';
import { WEBHOOK_RESOLVERS } from '../modules/webhooks/graphql';
import type { ListRegistration } from '../modules/paging/graphql';
import { registerCompiledLists } from './compiled-reads';
import { forgetReadsAroundMutationFields } from './mutation-freshness';
import type { Services } from './services';

/**
 * Each module's resolvers, as its graphql/index.ts registers them, by the module's name: every
 * module of src/modules/index.ts has its entry (none for a module without GraphQL), and the
 * schema takes them in the modules' order.
 */
const RESOLVERS_OF: Readonly<Record<ModuleName, readonly ResolverRegistration<Services>[]>> = {
  ids: [],
  'rule-forms': [],
  common: [],
  paging: [],
  writes: [],
  accounts: [],
  outbox: [],
  staff: STAFF_RESOLVERS,
  companies: COMPANY_RESOLVERS,
  projects: PROJECT_RESOLVERS,
  rates: RATE_RESOLVERS,
  activities: ACTIVITY_RESOLVERS,
  shifts: SHIFT_RESOLVERS,
  events: EVENT_RESOLVERS,
  webhooks: WEBHOOK_RESOLVERS,
  delivery: [],
  reports: REPORT_RESOLVERS,
  sync: SYNC_RESOLVERS,
  oauth: OAUTH_RESOLVERS,
  'time-zones': TIME_ZONE_RESOLVERS,
  nodes: NODE_RESOLVERS,
};

/** The root lists reads compiled to SQL answer (src/graphql/compiled-reads), as the modules name them. */
const COMPILED_LISTS: readonly ListRegistration<Services>[] = [
  ...STAFF_LISTS,
  ...COMPANY_LISTS,
  ...PROJECT_LISTS,
  ...ACTIVITY_LISTS,
  ...SHIFT_LISTS,
];

/**
 * Builds the executable schema; resolvers get their services through a small container.
 * Subscriptions listen on `pubSub` (the app's live shift events; without one, nothing is heard).
 */
export async function createSchema(
  services: Services,
  pubSub: PubSub = createPubSub(),
): Promise<GraphQLSchema> {
  const registrations: readonly ResolverRegistration<Services>[] = MODULES.flatMap(
    (module) => RESOLVERS_OF[module.name],
  );
  const instances = new Map(registrations.map(([resolver, build]) => [resolver, build(services)]));
  const container: ContainerType = { get: (cls) => instances.get(cls) };
  const [first, ...rest] = registrations.map(([resolver]) => resolver);
  if (!first) throw new Error('no module registers a resolver');
  const built = await buildSchema({
    resolvers: [first, ...rest],
    container,
    validate: false,
    pubSub,
  });
  const schema = describeRootTypes(
    forgetReadsAroundMutationFields(withErrorCodes(withOneOfInputs(maskDeclaredFields(built)))),
  );
  registerCompiledLists(
    schema,
    new Map(COMPILED_LISTS.map(([field, build]) => [field, build(services)] as const)),
  );
  // Last: the event source is found by the schema object that serves the subscriptions.
  registerShiftEventSource(schema, { pubSub, projects: services.projects });
  return schema;
}

/**
 * type-graphql builds the root types itself and takes no description for them; app tooling
 * (GraphiQL's docs, codegen comments, graphql-schema-linter) expects one on every type.
 */
function describeRootTypes(schema: GraphQLSchema): GraphQLSchema {
  const roots = [
    [
      schema.getQueryType(),
      'Reads: the caller, their account and everything in it that they may see.',
    ],
    [
      schema.getMutationType(),
      'Changes: each runs in one database transaction; a refused one changes nothing.',
    ],
    [
      schema.getSubscriptionType(),
      'Live events over graphql-ws at the same URL (`ws(s)://<host>/graphql`).',
    ],
  ] as const;
  for (const [type, description] of roots) if (type) type.description = description;
  return schema;
}

/**
 * Marks the inputs that take exactly one of their fields (`@oneOf`, the `ProjectRef` kind):
 * type-graphql has no option for it. graphql-js then refuses both and neither in literals (a
 * validation rule) and in variables (coercion), and the service's own check stays as a backstop.
 */
function withOneOfInputs(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.INPUT_OBJECT_TYPE]: (type) =>
      ONE_OF_INPUT_TYPES.has(type.name)
        ? new GraphQLInputObjectType({ ...type.toConfig(), isOneOf: true })
        : undefined,
  });
}

/**
 * The codes an error's `extensions.code` can carry, as an enum of the schema so that codegen
 * types them: the catalogue of src/core/errors.ts, and the codes of requests Apollo refuses before
 * any resolver runs. No field returns it: errors travel in `errors[]`, as GraphQL puts them.
 */
const ErrorCodeEnum = new GraphQLEnumType({
  name: 'ErrorCode',
  description:
    'The code of an error, in `errors[].extensions.code`. Errors of a rule also carry `extensions.entity` (what the error is about) and, when input was refused, `extensions.fieldErrors` (`[{ field, message }]`, `field` naming the input field).',
  values: {
    ...Object.fromEntries(
      ERROR_CODES.map((code) => [
        code,
        {
          description: `${ERROR_MEANINGS[code]} HTTP status ${HTTP_STATUS[code]} on the legacy interfaces.`,
        },
      ]),
    ),
    ...Object.fromEntries(
      Object.entries(APOLLO_CODES).map(([code, description]) => [code, { description }]),
    ),
  },
});

function withErrorCodes(schema: GraphQLSchema): GraphQLSchema {
  const config = schema.toConfig();
  return new GraphQLSchema({ ...config, types: [...config.types, ErrorCodeEnum] });
}

/** The SDL committed as schema/schema.graphql: sorted, so it only changes when the schema does. */
export function printSortedSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
