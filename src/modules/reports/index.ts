/**
 * Reports: totals of the shifts a caller may see, grouped and bucketed, and their GraphQL. Imports
 * staff, companies and shifts. Other modules and the layers above use nothing of it but what this
 * file exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
export { ReportService, type ReportOptions } from './report.service';
export {
  ReportBucket,
  ReportDimension,
  RoundingDirection,
  RoundingScope,
  WeekStart,
  type ReportRequest,
  type ReportRoundingRequest,
  type ReportShiftFilter,
} from './report-request';
export type {
  ReportRefShape,
  ReportRowShape,
  ReportShape,
  ReportSumsShape,
  ReportUserShape,
} from './report-result';

/** The module's place in the order of src/modules/index.ts; it adds no entities or migrations. */
export const REPORTS_MODULE = {
  name: 'reports',
} as const satisfies ModuleDefinition;
