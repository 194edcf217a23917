import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import { ReportInput } from './report.inputs';
import { REPORT_ROWS_DEFAULT, REPORT_ROWS_MAX, type ReportService } from '../report.service';
import { Report } from './report.types';

/**
 * The cost guard counts the rows a report may return: `first` (at most REPORT_ROWS_MAX) times what
 * each row selects, plus the totals.
 */
function reportComplexity({
  args,
  childComplexity,
}: {
  args: Record<string, unknown>;
  childComplexity: number;
}): number {
  const first =
    typeof args.first === 'number' && args.first > 0
      ? Math.min(args.first, REPORT_ROWS_MAX)
      : REPORT_ROWS_DEFAULT;
  return 1 + first * childComplexity;
}

@Resolver(() => Report)
export class ReportResolver {
  constructor(private readonly service: ReportService) {}

  @Query(() => Report, {
    description:
      'Time and money grouped by company, project, activity, user, tag, billable and calendar period over [from, to). See docs/reports.md.',
    complexity: reportComplexity,
  })
  report(
    @Arg('input', () => ReportInput, {
      description:
        'The range, time zone, row keys, bucket and filter; shifts the caller cannot see never count.',
    })
    input: ReportInput,
    @Arg('first', () => Int, {
      nullable: true,
      description: `Rows to return (default ${REPORT_ROWS_DEFAULT}, at most ${REPORT_ROWS_MAX}); totalCount says how many there are.`,
    })
    first: number | undefined,
    @Arg('offset', () => Int, {
      nullable: true,
      description: "Rows to skip, in the report's order.",
    })
    offset: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Report> {
    return this.service.report(ctx, input, { limit: first ?? null, offset: offset ?? null });
  }
}
