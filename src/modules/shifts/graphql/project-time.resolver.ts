import type { GraphQLResolveInfo } from 'graphql';
import { SafeIntResolver } from 'graphql-scalars';
import { Arg, Args, Ctx, FieldResolver, Info, Mutation, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import { then, type MaybePromise } from '../../../core/loaders';
import { Account } from '../../accounts';
import { FILTER_DESCRIPTIONS, PageArgs, DateTimeISOResolver } from '../../common';
import { loadById, ReadsAhead } from '../../paging';
import { ComputedSql, pageRequest, ReadsColumns, RowsSql, type SqlRow } from '../../paging/graphql';
import { Project } from '../../projects';
import {
  projectTotalsSql,
  projectTotals,
  readProjectTotals,
  viewerRunningShift,
} from '../project-time.loaders';
import type { PunchResult, PunchService } from '../punch.service';
import { Shift } from '../shift.entity';
import { projectShifts } from '../shift.loaders';
import { PunchInInput, PunchOutInput, ShiftFilter, ShiftOrder } from './shift.inputs';
import { PunchInPayload, PunchOutPayload } from './shift.payloads';
import { ShiftConnection } from './shift.resolver';

/** The viewer's account (its `nearlyOverdueRatio`), read once for a project list. */
const readViewerAccount = (ctx: RequestContext) => loadById(ctx, Account, ctx.viewer.accountId);

/**
 * What shifts add to a project: punching in and out, its shifts, its totals and the caller's
 * running shift. The fields answer synchronously once a project list has read ahead what they
 * declare (`@ReadsAhead`), so hundreds of projects cost no promise per field.
 */
@Resolver(() => Project)
export class ProjectTimeResolver {
  constructor(private readonly punches: PunchService) {}

  @Mutation(() => PunchInPayload, {
    description:
      "Starts a running shift for the caller, stopping the caller's other running shift at the same instant. The payload holds the new shift, its project and the stopped shifts.",
  })
  punchIn(
    @Arg('input', () => PunchInInput, {
      description: 'The project, and what the running shift starts with.',
    })
    input: PunchInInput,
    @Ctx() ctx: RequestContext,
  ): Promise<PunchResult> {
    const { project, inCompany, ...fields } = input;
    return this.punches.punchIn(ctx, project, fields, inCompany ?? undefined);
  }

  @Mutation(() => PunchOutPayload, {
    description:
      "Stops the caller's running shift on the project. The payload holds the stopped shift and its project.",
  })
  punchOut(
    @Arg('input', () => PunchOutInput, { description: 'The project, and notes to add.' })
    input: PunchOutInput,
    @Ctx() ctx: RequestContext,
  ): Promise<PunchResult> {
    return this.punches.punchOut(ctx, input.project, input.notes, input.inCompany ?? undefined);
  }

  @ReadsColumns(Project)
  @FieldResolver(() => ShiftConnection, {
    description:
      'Shifts on the project that the caller can see (the owner all; a manager all on a visible project; a staff member their own).',
  })
  shifts(
    @Root() project: Project,
    @Args() page: PageArgs,
    @Arg('filter', () => ShiftFilter, {
      nullable: true,
      description: FILTER_DESCRIPTIONS.filterArg,
    })
    filter: ShiftFilter | undefined,
    @Arg('order', () => [ShiftOrder], { nullable: true, description: FILTER_DESCRIPTIONS.orderArg })
    order: InstanceType<typeof ShiftOrder>[] | undefined,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return projectShifts(ctx, project.id, pageRequest(page, info), filter, order);
  }

  @ReadsAhead(Project, readProjectTotals)
  @ReadsColumns(Project)
  @ComputedSql(Project, grandTotalSql)
  @FieldResolver(() => SafeIntResolver, {
    description:
      'Seconds of every shift on the project, by all users, whoever may see them; running shifts count up to the instant of the request.',
  })
  grandTotal(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<number> {
    return then(projectTotals(ctx, project.id), (totals) => totals.grandTotal);
  }

  @ReadsAhead(Project, readProjectTotals)
  @ReadsColumns(Project)
  @ComputedSql(Project, (p) => `${totals(p)}."mine"`)
  @FieldResolver(() => SafeIntResolver, {
    description:
      "Seconds of the caller's own shifts on the project; a running shift counts up to the instant of the request.",
  })
  runningTotal(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<number> {
    return then(projectTotals(ctx, project.id), (totals) => totals.runningTotal);
  }

  @ReadsAhead(Project, viewerRunningShift)
  @ReadsColumns(Project)
  @ComputedSql(Project, (p) => `exists (select 1 from shifts where ${viewerRunningOn(p)})`)
  @FieldResolver(() => Boolean, { description: 'Whether the caller is punched in to the project.' })
  running(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<boolean> {
    return then(viewerRunningShift(ctx), (shift) => shift?.project.id === project.id);
  }

  @ReadsAhead(Project, viewerRunningShift)
  @ReadsColumns(Project)
  @RowsSql(
    Project,
    () => Shift,
    (p, s) =>
      `${s.column('user')} = ${Number(p.request.viewerId)} and ${s.column('stop')} is null and ${s.column('project')} = ${p.column('id')}`,
  )
  @FieldResolver(() => Shift, {
    nullable: true,
    description: "The caller's running shift on the project; null when not punched in to it.",
  })
  currentShift(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<Shift | null> {
    return then(viewerRunningShift(ctx), (shift) =>
      shift?.project.id === project.id ? shift : null,
    );
  }

  @ReadsAhead(Project, viewerRunningShift)
  @ReadsColumns(Project)
  @ComputedSql(Project, (p) => `(select start from shifts where ${viewerRunningOn(p)})`)
  @FieldResolver(() => DateTimeISOResolver, {
    nullable: true,
    description: 'The start of `currentShift`; null when the caller is not punched in to it.',
  })
  startedAt(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<Date | null> {
    return then(this.currentShift(project, ctx), (shift) => shift?.start ?? null);
  }

  @ReadsAhead(Project, readProjectTotals)
  @ReadsColumns(Project, 'timeLimit')
  @ComputedSql(Project, (p) => `${p.column('timeLimit')} - ${grandTotalSql(p)}`)
  @FieldResolver(() => SafeIntResolver, {
    nullable: true,
    description:
      'Seconds left: `timeLimit` minus `grandTotal`, negative once overdue; null without a limit.',
  })
  timeLeft(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<number | null> {
    const limit = project.timeLimit;
    return limit === null ? null : then(this.grandTotal(project, ctx), (total) => limit - total);
  }

  @ReadsAhead(Project, readProjectTotals)
  @ReadsColumns(Project, 'timeLimit')
  @ComputedSql(Project, (p) => `${grandTotalSql(p)} > ${p.column('timeLimit')}`)
  @FieldResolver(() => Boolean, {
    nullable: true,
    description: 'True once `grandTotal` exceeds `timeLimit`; null without a limit.',
  })
  overdue(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<boolean | null> {
    const limit = project.timeLimit;
    return limit === null ? null : then(this.grandTotal(project, ctx), (total) => total > limit);
  }

  @ReadsAhead(Project, readProjectTotals, readViewerAccount)
  @ReadsColumns(Project, 'timeLimit')
  // Both sides compare doubles, as JavaScript does: int × double is a double in PostgreSQL too.
  @ComputedSql(
    Project,
    (p) =>
      `${grandTotalSql(p)} <= ${p.column('timeLimit')} and ${grandTotalSql(p)} >= ${p.column('timeLimit')} * (select nearly_overdue_ratio from accounts where id = ${p.request.accountId})`,
  )
  @FieldResolver(() => Boolean, {
    nullable: true,
    description:
      "True when `grandTotal` has reached the account's `nearlyOverdueRatio` (default 0.9) of `timeLimit` and is not yet overdue; null without a limit.",
  })
  nearlyOverdue(
    @Root() project: Project,
    @Ctx() ctx: RequestContext,
  ): MaybePromise<boolean | null> {
    const limit = project.timeLimit;
    if (limit === null) return null;
    return then(this.grandTotal(project, ctx), (total) =>
      then(
        loadById(ctx, Account, ctx.viewer.accountId),
        (account) => total <= limit && total >= limit * (account?.nearlyOverdueRatio ?? 0.9),
      ),
    );
  }
}

/** The project's totals (`grand`, `mine`), computed once per project row however many fields read them. */
function totals(p: SqlRow): string {
  return p.lateral('totals', (row) =>
    projectTotalsSql(
      row.request.accountId,
      row.column('id'),
      row.param(row.request.now),
      row.request.viewerId,
    ),
  );
}

/** `grandTotal` in SQL: every user's seconds up to the request's instant. */
function grandTotalSql(p: SqlRow): string {
  return `${totals(p)}."grand"`;
}

/** The caller's running shift on the project, as a condition on `shifts` (at most one row). */
function viewerRunningOn(p: SqlRow): string {
  return `account_id = ${p.request.accountId} and user_id = ${Number(p.request.viewerId)} and stop is null and project_id = ${p.column('id')}`;
}
