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
  @Field(() => ID, {
    nullable: true,
    description: 'The uuid (`id`) of the object; give this or `legacyId`, not both.',
  })
  id?: string;

  @Field(() => Int, {
    nullable: true,
    description:
      "The integer id (`legacyId`, the XML API's identifier) of the object; give this or `id`, not both.",
  })
  legacyId?: number;
}

/** Orders by one field of a type; a list of them orders by each in turn. */
export function OrderInput<F extends string>(fieldEnum: Record<string, F>, name: string) {
  @InputType(name, {
    description:
      'One sort key; a list of them sorts by each in turn, then by `legacyId` ascending.',
  })
  class OrderInputClass {
    @Field(() => fieldEnum, { description: 'The field to sort by.' })
    field!: F;

    @Field(() => OrderDirection, {
      defaultValue: OrderDirection.ASC,
      description: 'ASC (the default) or DESC.',
    })
    direction: OrderDirection = OrderDirection.ASC;
  }
  return OrderInputClass;
}

export type { OrderSpec } from '../../../core/list-shapes';

/** The parent of a nested route (`/companies/:id/projects`): named by uuid or integer id, or absent. */
export function optionalLocator(
  id: string | null | undefined,
  legacyId: number | null | undefined,
) {
  return id != null || legacyId != null
    ? { id: id ?? null, legacyId: legacyId ?? null }
    : undefined;
}

/** The sort keys every type's order enum has, described once. */
export const COMMON_ORDER_VALUES = {
  LEGACY_ID: { description: 'By `legacyId`, the integer id.' },
  ID: { description: 'By `id`, the uuid (in PostgreSQL uuid order).' },
  CREATED_AT: { description: 'By the instant the row was created.' },
  UPDATED_AT: { description: 'By the instant the row last changed (incremental sync).' },
} as const;
