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
import { ActivityResolver, ProjectActivitiesResolver } from '../modules/activities';
import { ONE_OF_INPUT_TYPES } from '../modules/common';
import { CompanyResolver, StaffCascadeCompaniesResolver } from '../modules/companies';
import { ERROR_CODES, ERROR_MEANINGS, HTTP_STATUS } from '../core/errors';
import { APOLLO_CODES } from './format-error';
import { registerShiftEventSource, ShiftEventResolver } from '../modules/events';
import { NodeLookup, NodeResolver } from '../modules/nodes';
import { SyncResolver } from '../modules/sync';
import { OAuthClientResolver } from '../modules/oauth';
import {
  CompanyProjectsResolver,
  ProjectResolver,
  StaffCascadeProjectsResolver,
} from '../modules/projects';
import {
  DeleteRatePayloadResolver,
  ProjectRatesResolver,
  RateResolver,
  SetRatePayloadResolver,
  StaffRatesResolver,
} from '../modules/rates';
import { ReportResolver } from '../modules/reports';
import { ActivityCascadeResolver, ProjectTimeResolver, ShiftResolver } from '../modules/shifts';
import { AccountResolver, StaffResolver, ViewerResolver } from '../modules/staff';
import { TimeZoneResolver, TimeZoneService } from '../modules/time-zones';
import { WebhookResolver } from '../modules/webhooks';
import { forgetReadsAroundMutationFields } from './mutation-freshness';
import type { Services } from './services';

const RESOLVERS = [
  ViewerResolver,
  AccountResolver,
  StaffResolver,
  CompanyResolver,
  CompanyProjectsResolver,
  ProjectResolver,
  ProjectTimeResolver,
  ProjectActivitiesResolver,
  ActivityResolver,
  ShiftResolver,
  ActivityCascadeResolver,
  StaffCascadeProjectsResolver,
  StaffCascadeCompaniesResolver,
  TimeZoneResolver,
  OAuthClientResolver,
  RateResolver,
  SetRatePayloadResolver,
  DeleteRatePayloadResolver,
  ProjectRatesResolver,
  StaffRatesResolver,
  ReportResolver,
  WebhookResolver,
  ShiftEventResolver,
  NodeResolver,
  SyncResolver,
] as const;

/**
 * Builds the executable schema; resolvers get their services through a small container.
 * Subscriptions listen on `pubSub` (the app's live shift events; without one, nothing is heard).
 */
export async function createSchema(
  services: Services,
  pubSub: PubSub = createPubSub(),
): Promise<GraphQLSchema> {
  const instances = new Map<unknown, unknown>([
    [ViewerResolver, new ViewerResolver()],
    [AccountResolver, new AccountResolver()],
    [StaffResolver, new StaffResolver(services.staff)],
    [CompanyResolver, new CompanyResolver(services.companies)],
    [CompanyProjectsResolver, new CompanyProjectsResolver()],
    [ProjectResolver, new ProjectResolver(services.projects)],
    [ProjectTimeResolver, new ProjectTimeResolver(services.punches)],
    [ProjectActivitiesResolver, new ProjectActivitiesResolver()],
    [ActivityResolver, new ActivityResolver(services.activities)],
    [ShiftResolver, new ShiftResolver(services.shifts)],
    [ActivityCascadeResolver, new ActivityCascadeResolver(services.shifts)],
    [StaffCascadeProjectsResolver, new StaffCascadeProjectsResolver(services.projects)],
    [StaffCascadeCompaniesResolver, new StaffCascadeCompaniesResolver(services.companies)],
    [TimeZoneResolver, new TimeZoneResolver(new TimeZoneService())],
    [OAuthClientResolver, new OAuthClientResolver(services.oauthClients)],
    [RateResolver, new RateResolver(services.rates)],
    [SetRatePayloadResolver, new SetRatePayloadResolver(services.staff)],
    [DeleteRatePayloadResolver, new DeleteRatePayloadResolver(services.staff)],
    [ProjectRatesResolver, new ProjectRatesResolver(services.rates)],
    [StaffRatesResolver, new StaffRatesResolver(services.rates)],
    [ReportResolver, new ReportResolver(services.reports)],
    [WebhookResolver, new WebhookResolver(services.webhooks)],
    [ShiftEventResolver, new ShiftEventResolver(services.shifts)],
    [NodeResolver, new NodeResolver(new NodeLookup(services))],
    [SyncResolver, new SyncResolver(services.sync)],
  ]);
  const container: ContainerType = { get: (cls) => instances.get(cls) };
  const built = await buildSchema({ resolvers: RESOLVERS, container, validate: false, pubSub });
  const schema = describeRootTypes(
    forgetReadsAroundMutationFields(withErrorCodes(withOneOfInputs(built))),
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
