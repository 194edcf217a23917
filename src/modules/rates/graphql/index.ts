/**
 * The GraphQL side of rates: the rate resolvers, Project.rates, Staff.rates and the rate payloads.
 * The schema assembly (src/graphql/schema.ts) imports it, and so may another module's graphql/
 * folder that extends these types; nothing else does.
 */
import {
  DeleteRatePayloadResolver,
  ProjectRatesResolver,
  RateResolver,
  SetRatePayloadResolver,
  StaffRatesResolver,
} from './rate.resolver';
import type { ResolverRegistration } from '../../../core/module-definition';
import type { StaffService } from '../../staff';
import type { RateService } from '../rate.service';

/** Built once per schema from the services they use. */
export const RATE_RESOLVERS: readonly ResolverRegistration<{
  rates: RateService;
  staff: StaffService;
}>[] = [
  [RateResolver, (s) => new RateResolver(s.rates)],
  [SetRatePayloadResolver, (s) => new SetRatePayloadResolver(s.staff)],
  [DeleteRatePayloadResolver, (s) => new DeleteRatePayloadResolver(s.staff)],
  [ProjectRatesResolver, (s) => new ProjectRatesResolver(s.rates)],
  [StaffRatesResolver, (s) => new StaffRatesResolver(s.rates)],
];
