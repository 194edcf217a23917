import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import type { TimeZoneService } from '../time-zone.service';
import { TimeZone } from './time-zone.type';
import { listComplexity } from '../../paging/graphql';

@Resolver(() => TimeZone)
export class TimeZoneResolver {
  constructor(private readonly service: TimeZoneService) {}

  @Query(() => [TimeZone], {
    description:
      'Every IANA time zone the service accepts, by name, with its offset and DST at the instant of the request.',
    complexity: listComplexity(600),
  })
  timeZones(
    @Arg('nameContains', () => String, {
      nullable: true,
      description: 'Only zones whose name contains this text (case-insensitive).',
    })
    nameContains: string | undefined,
    @Ctx() ctx: RequestContext,
  ): TimeZone[] {
    return this.service.list(ctx, nameContains);
  }
}
