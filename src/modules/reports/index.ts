export { ReportResolver } from './graphql/report.resolver';
export { ReportService } from './report.service';
