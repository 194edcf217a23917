import { type ClassType, Field, Int, ObjectType } from 'type-graphql';
import type { ConnectionShape, EdgeShape, PageInfoShape } from '../../../core/list-shapes';

/** Relay's page information; the cursors are those of the page's first and last edges. */
@ObjectType({ description: 'Where this page lies in the list, for reading the pages around it.' })
export class PageInfo implements PageInfoShape {
  @Field(() => Boolean, { description: 'Whether rows follow this page (paging forward: exact).' })
  hasNextPage!: boolean;

  @Field(() => Boolean, {
    description:
      'Whether rows precede this page. Exact paging backward (`last`); paging forward, true when an `after` cursor was given.',
  })
  hasPreviousPage!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'Cursor of the first row of the page: pass as `before` to read the page before.',
  })
  startCursor!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Cursor of the last row of the page: pass as `after` to read the next page.',
  })
  endCursor!: string | null;
}

export type { ConnectionShape, EdgeShape };

/**
 * A list page as a Relay connection: `edges { cursor node }` and, for clients without a
 * normalised cache, the same nodes as `nodes`. Cursors are keyset positions
 * (paging/keyset-cursors.ts): they stay valid when rows are added before them.
 */
export function Connection<T extends object>(node: ClassType<T>, name: string) {
  const nodeName = name.replace(/Connection$/, '');

  @ObjectType(`${nodeName}Edge`, { description: `A ${nodeName} of a page, with its cursor.` })
  class EdgeClass implements EdgeShape<T> {
    @Field(() => String, {
      description: 'Its position in the list: pass as `after` or `before` to page from it.',
    })
    cursor!: string;

    @Field(() => node, { description: `The ${nodeName}.` })
    node!: T;
  }

  @ObjectType(name, { description: `A page of ${nodeName} objects (a Relay connection).` })
  class ConnectionClass implements ConnectionShape<T> {
    @Field(() => Int, { description: 'How many rows match the filter, over all pages.' })
    totalCount!: number;

    @Field(() => [EdgeClass], { description: 'The rows of this page with their cursors.' })
    edges!: EdgeShape<T>[];

    @Field(() => [node], {
      description: 'The rows of this page, as in `edges` without the cursors.',
    })
    nodes!: T[];

    @Field(() => PageInfo, { description: 'Where this page lies in the list.' })
    pageInfo!: PageInfo;
  }
  return ConnectionClass;
}
