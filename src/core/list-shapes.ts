/**
 * The shapes of a list as the list queries (modules/paging: list-query.ts, keyset-cursors.ts) take
 * and give them: the order and a Relay page. Plain types, so the rules need nothing of GraphQL;
 * the GraphQL types in paging/graphql/connection.ts and common/graphql/list-args.ts implement them
 * and common/graphql/enums.ts registers the enum.
 */

/** Which way a sort key sorts. */
export enum OrderDirection {
  ASC = 'asc',
  DESC = 'desc',
}

/** One sort key of a list. */
export interface OrderSpec<F extends string = string> {
  field: F;
  direction: OrderDirection;
}

/** Where a page lies in its list; the cursors are those of its first and last edges. */
export interface PageInfoShape {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface EdgeShape<T> {
  node: T;
  cursor: string;
}

export interface ConnectionShape<T> {
  totalCount: number;
  nodes: T[];
  /** The nodes with their cursors; made when read, so a query selecting only `nodes` pays nothing. */
  readonly edges: EdgeShape<T>[];
  pageInfo: PageInfoShape;
}
