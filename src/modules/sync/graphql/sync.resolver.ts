import { Arg, Args, Ctx, Field, ID, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import { DateTimeISOResolver, PageArgs } from '../../common';
import { Connection } from '../../paging/graphql';
import type { SyncService } from '../sync.service';
import type { Tombstone } from '../tombstone.policy';

@ObjectType('Deletion', {
  description:
    "An object deleted since a point of an incremental sync (docs/sync.md): drop it from the local copy. A value with no `id` of its own (`nodeId` is the deleted object's).",
})
export class DeletionType {
  @Field(() => ID, {
    description:
      'The `id` the deleted object had: evict `typename` + `nodeId` from a client cache.',
  })
  nodeId!: string;
  @Field(() => Int, { description: 'The integer id of the legacy XML API the object had.' })
  legacyId!: number;
  @Field(() => String, {
    description: 'The GraphQL type of the object: Staff, Company, Project, Activity or Shift.',
  })
  typename!: string;
  @Field(() => DateTimeISOResolver, {
    description: 'When it was deleted (the start of the deleting transaction).',
  })
  deletedAt!: Date;
}

export const DeletionConnection = Connection(DeletionType, 'DeletionConnection');

function toDeletion(tombstone: Tombstone): DeletionType {
  return {
    nodeId: tombstone.uuid,
    legacyId: tombstone.legacyId,
    typename: tombstone.typename,
    deletedAt: tombstone.deletedAt,
  };
}

@Resolver()
export class SyncResolver {
  constructor(private readonly service: SyncService) {}

  @Query(() => DateTimeISOResolver, {
    description:
      'The point to pass as `updatedAt: { gte }` and `deletions(since:)` at the next sync. Ask it before the reads of this sync, in a request of its own (docs/sync.md).',
  })
  syncWatermark(@Ctx() ctx: RequestContext): Promise<Date> {
    return this.service.watermark(ctx);
  }

  @Query(() => DeletionConnection, {
    description:
      'Objects deleted at or after `since` that the caller could see, oldest first; kept TOMBSTONE_RETENTION_DAYS (docs/sync.md).',
  })
  async deletions(
    @Arg('since', () => DateTimeISOResolver, {
      description: "The previous sync's `syncWatermark`; refused when older than the retention.",
    })
    since: Date,
    @Args() page: PageArgs,
    @Ctx() ctx: RequestContext,
  ) {
    const connection = await this.service.deletions(ctx, since, page);
    return { ...connection, nodes: connection.nodes.map(toDeletion) };
  }
}
