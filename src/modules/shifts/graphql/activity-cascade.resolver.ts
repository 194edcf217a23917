import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import { DeleteActivityPayload } from '../../activities/graphql';
import { inOrderOf } from '../../writes';
import { cascadeDescriptions } from '../../writes/graphql';
import { Shift } from '../shift.entity';
import type { ShiftService } from '../shift.service';

/** What shifts add to deleting an activity: the shifts that named it, as they are now. */
@Resolver(() => DeleteActivityPayload)
export class ActivityCascadeResolver {
  constructor(private readonly shifts: ShiftService) {}

  @FieldResolver(() => [Shift], {
    description: `${cascadeDescriptions.objects('shifts that named the activity (their `activity` is now null)')} Each also sent SHIFT_UPDATED (subscription, webhooks).`,
  })
  async updatedShifts(
    @Root() payload: DeleteActivityPayload,
    @Ctx() ctx: RequestContext,
  ): Promise<Shift[]> {
    const { ids } = payload.shifts;
    return inOrderOf(ids, await this.shifts.getMany(ctx, ids));
  }
}
