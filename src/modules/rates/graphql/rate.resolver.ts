import { Arg, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import { ReadsColumns } from '../../common';
import { Project } from '../../projects';
import { Staff } from '../../staff';
import type { RateService } from '../rate.service';
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
    return { rate: await this.service.set(ctx, input) };
  }

  @Mutation(() => DeleteRatePayload, {
    description: 'Removes an entry of a rate history; the shifts it priced take the rates left.',
  })
  async deleteRate(
    @Arg('input', () => DeleteRateInput, { description: 'The entry to remove.' })
    input: DeleteRateInput,
    @Ctx() ctx: RequestContext,
  ): Promise<DeleteRatePayload> {
    const rate = await this.service.delete(ctx, input.id);
    return { deletedRateId: rate.id, rate };
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
