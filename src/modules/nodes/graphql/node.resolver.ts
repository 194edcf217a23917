import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { ValidationError } from '../../../core/errors';
import type { RequestContext } from '../../../core/request-context';
import { Node } from '../../common';
import type { NodeLookup } from '../node-lookups';

/** Relay's `node` and `nodes`: any object by its id, under the policy of its own type's lookup. */
@Resolver()
export class NodeResolver {
  constructor(private readonly lookup: NodeLookup) {}

  @Query(() => Node, {
    nullable: true,
    description:
      'The object with this id, of whatever type; null, with an error at this path, when there is none or the caller may not see it.',
  })
  async node(
    @Arg('id', () => ID, { description: 'The `id` of any object.' }) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<object> {
    const [found] = await this.lookup.find(ctx, [id]);
    if (found instanceof Error) throw found;
    return found!;
  }

  @Query(() => [Node], {
    nullable: 'items',
    // As many objects as ids, for the cost guard (src/graphql/operation-guards.ts): each id costs
    // at least 1, like an item of any list, even when only its scalars (`{ id }`, costing 0) are
    // asked for, since every id is looked up.
    complexity: ({ args, childComplexity }) =>
      1 + (Array.isArray(args.ids) ? args.ids.length : 1) * Math.max(1, childComplexity),
    description:
      'The objects with these ids, in their order; each one that is missing or hidden from the caller is null, with an error at its path. At most PAGE_SIZE_MAX ids.',
  })
  async nodes(
    @Arg('ids', () => [ID], { description: 'The `id`s of any objects.' }) ids: string[],
    @Ctx() ctx: RequestContext,
  ): Promise<(object | Error)[]> {
    const max = ctx.config.pageSize.max;
    if (ids.length > max)
      throw ValidationError.field(undefined, 'ids', `lists more than ${max} ids`);
    // An Error in a list is answered as null with that error at the item's path (GraphQL's rule,
    // which graphql-jit follows too).
    return this.lookup.find(ctx, ids);
  }
}
