import { ArgsType, Field, ID, InputType, Int } from 'type-graphql';
import { OrderDirection } from './enums';

@ArgsType()
export class PageArgs {
  @Field(() => Int, {
    nullable: true,
    description: 'Page size; capped by the server (PAGE_SIZE_MAX).',
  })
  first?: number;

  @Field(() => String, {
    nullable: true,
    description: 'Rows after this cursor (`pageInfo.endCursor` of the previous page).',
  })
  after?: string;

  @Field(() => Int, {
    nullable: true,
    description: 'Page size, reading backwards: the last rows (before `before`); not with `first`.',
  })
  last?: number;

  @Field(() => String, {
    nullable: true,
    description: 'Rows before this cursor (`pageInfo.startCursor` of the next page).',
  })
  before?: string;
}

/** Addresses one row by its uuid (`id`) or by its integer id (`legacyId`): exactly one of them. */
@ArgsType()
export class LocatorArgs {
  @Field(() => ID, { nullable: true })
  id?: string;

  @Field(() => Int, { nullable: true })
  legacyId?: number;
}

/** Orders by one field of a type; a list of them orders by each in turn. */
export function OrderInput<F extends string>(fieldEnum: Record<string, F>, name: string) {
  @InputType(name)
  class OrderInputClass {
    @Field(() => fieldEnum)
    field!: F;

    @Field(() => OrderDirection, { defaultValue: OrderDirection.ASC })
    direction: OrderDirection = OrderDirection.ASC;
  }
  return OrderInputClass;
}

export interface OrderSpec<F extends string = string> {
  field: F;
  direction: OrderDirection;
}

/** The parent of a nested route (`/companies/:id/projects`): named by uuid or integer id, or absent. */
export function optionalLocator(
  id: string | null | undefined,
  legacyId: number | null | undefined,
) {
  return id != null || legacyId != null
    ? { id: id ?? null, legacyId: legacyId ?? null }
    : undefined;
}
