/**
 * The GraphQL side of time-zones: the time zone list. The schema assembly (src/graphql/schema.ts)
 * imports it, and so may another module's graphql/ folder that extends these types; nothing else
 * does.
 */
import { TimeZoneResolver } from './time-zone.resolver';
import type { ResolverRegistration } from '../../../core/module-definition';
import { TimeZoneService } from '..';

/** Built once per schema: the zone list needs no service of the process. */
export const TIME_ZONE_RESOLVERS: readonly ResolverRegistration<unknown>[] = [
  [TimeZoneResolver, () => new TimeZoneResolver(new TimeZoneService())],
];
