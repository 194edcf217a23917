import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { createPubSub } from '@graphql-yoga/subscription';
import { buildSchema, type ContainerType, type PubSub } from 'type-graphql';
import { ActivityResolver } from '../modules/activities/graphql/activity.resolver';
import { OAuthClientResolver } from '../modules/oauth/graphql/oauth-client.resolver';
import { CompanyResolver } from '../modules/companies/graphql/company.resolver';
import { ShiftEventResolver } from '../modules/events/graphql/shift-event.resolver';
import { ProjectResolver } from '../modules/projects/graphql/project.resolver';
import { ReportResolver } from '../modules/reports/graphql/report.resolver';
import { ShiftResolver } from '../modules/shifts/graphql/shift.resolver';
import { StaffResolver } from '../modules/staff/graphql/staff.resolver';
import { AccountResolver, ViewerResolver } from '../modules/staff/graphql/viewer.resolver';
import { TimeZoneResolver } from '../modules/time-zones/graphql/time-zone.resolver';
import { TimeZoneService } from '../modules/time-zones/time-zone.service';
import { WebhookResolver } from '../modules/webhooks/graphql/webhook.resolver';
import type { Services } from './services';

const RESOLVERS = [
  ViewerResolver,
  AccountResolver,
  StaffResolver,
  CompanyResolver,
  ProjectResolver,
  ActivityResolver,
  ShiftResolver,
  TimeZoneResolver,
  OAuthClientResolver,
  ReportResolver,
  WebhookResolver,
  ShiftEventResolver,
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
    [ProjectResolver, new ProjectResolver(services.projects, services.punches)],
    [ActivityResolver, new ActivityResolver(services.activities)],
    [ShiftResolver, new ShiftResolver(services.shifts)],
    [TimeZoneResolver, new TimeZoneResolver(new TimeZoneService())],
    [OAuthClientResolver, new OAuthClientResolver(services.oauthClients)],
    [ReportResolver, new ReportResolver(services.reports)],
    [WebhookResolver, new WebhookResolver(services.webhooks)],
    [ShiftEventResolver, new ShiftEventResolver()],
  ]);
  const container: ContainerType = { get: (cls) => instances.get(cls) };
  return buildSchema({ resolvers: RESOLVERS, container, validate: false, pubSub });
}

/** The SDL committed as schema/schema.graphql: sorted, so it only changes when the schema does. */
export function printSortedSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
