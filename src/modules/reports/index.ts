/**
 * Reports: totals of the shifts a caller may see, grouped and bucketed, and their GraphQL. Imports
 * staff, companies and shifts. Other modules and the layers above use nothing of it but what this
 * file exports.
 */
export { ReportResolver } from './graphql/report.resolver';
export { ReportService, type ReportOptions } from './report.service';
