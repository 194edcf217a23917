import { Arg, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import { ReadsColumns } from '../../paging/graphql';
import { Project, visibleProject } from '../../projects';
import { Staff, type StaffService } from '../../staff';
import type { RateChange, RateService } from '../rate.service';
import { PROJECT_OF_RATE, STAFF_OF_RATE } from './rate.types';
import {
  DeleteRateInput,
  DeleteRatePayload,
  Rate,
  SetRateInput,
  SetRatePayload,
} from './rate.types';

/** Setting and removing the entries of rate histories (owner and managers). */
@Resolver(() => Rate)
export class RateResolver {
  constructor(private readonly service: RateService) {}

  @Mutation(() => SetRatePayload, {
    description:
      'Sets a rate in force from an instant (owner and managers): shifts starting since are priced by it, past ones keep theirs. See docs/reports.md.',
  })
  async setRate(
    @Arg('input', () => SetRateInput, { description: 'The rate and from when.' })
    input: SetRateInput,
    @Ctx() ctx: RequestContext,
  ): Promise<SetRatePayload> {
    const change = await this.service.set(ctx, input);
    return { rate: change.rate, change };
  }

  @Mutation(() => DeleteRatePayload, {
    description: 'Removes an entry of a rate history; the shifts it priced take the rates left.',
  })
  async deleteRate(
    @Arg('input', () => DeleteRateInput, { description: 'The entry to remove.' })
    input: DeleteRateInput,
    @Ctx() ctx: RequestContext,
  ): Promise<DeleteRatePayload> {
    const change = await this.service.delete(ctx, input.id);
    return { deletedRateId: change.rate.id, rate: change.rate, change };
  }
}

/** What rates add to a project: its billable rate history. */
@Resolver(() => Project)
export class ProjectRatesResolver {
  constructor(private readonly service: RateService) {}

  @ReadsColumns(Project)
  @FieldResolver(() => [Rate], {
    description:
      "The project's billable rates over time, oldest first; empty for a caller who may not read money.",
  })
  rates(@Root() project: Project, @Ctx() ctx: RequestContext): Promise<Rate[]> {
    return this.service.ofProject(ctx, project.id);
  }
}

/** What rates add to a user: their billable and cost rate histories. */
@Resolver(() => Staff)
export class StaffRatesResolver {
  constructor(private readonly service: RateService) {}

  @FieldResolver(() => [Rate], {
    description:
      "The user's billable and cost rates over time (by kind, oldest first); empty for a caller who may not read money.",
  })
  rates(@Root() staff: Staff, @Ctx() ctx: RequestContext): Promise<Rate[]> {
    return this.service.ofUser(ctx, staff.id);
  }
}

/**
 * The project or user whose rate history a payload's entry belongs to, read after the mutation
 * (the request has forgotten its reads by then: see graphql/mutation-freshness.ts), as
 * `project(id:)` and `staff(id:)` answer them.
 */
function RatePayloadResolver(payload: typeof SetRatePayload | typeof DeleteRatePayload) {
  @Resolver(() => payload)
  class Owners {
    constructor(readonly staffService: StaffService) {}

    @FieldResolver(() => Project, { nullable: true, description: PROJECT_OF_RATE })
    async project(
      @Root() root: { change: RateChange },
      @Ctx() ctx: RequestContext,
    ): Promise<Project | null> {
      const id = root.change.projectId;
      return id === null ? null : ((await visibleProject(ctx, id)) ?? null);
    }

    @FieldResolver(() => Staff, { nullable: true, description: STAFF_OF_RATE })
    staff(@Root() root: { change: RateChange }, @Ctx() ctx: RequestContext): Promise<Staff> | null {
      const id = root.change.userId;
      return id === null ? null : this.staffService.get(ctx, { id: null, legacyId: id });
    }
  }
  return Owners;
}

export const SetRatePayloadResolver = RatePayloadResolver(SetRatePayload);
export const DeleteRatePayloadResolver = RatePayloadResolver(DeleteRatePayload);
