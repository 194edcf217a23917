/**
 * The GraphQL side of reports: the `report` query. The schema assembly (src/graphql/schema.ts)
 * imports it, and so may another module's graphql/ folder that extends these types; nothing else
 * does.
 */
import { ReportResolver } from './report.resolver';
import type { ResolverRegistration } from '../../../core/module-definition';
import type { ReportService } from '../report.service';

/** Built once per schema from the services they use. */
export const REPORT_RESOLVERS: readonly ResolverRegistration<{ reports: ReportService }>[] = [
  [ReportResolver, (s) => new ReportResolver(s.reports)],
];
