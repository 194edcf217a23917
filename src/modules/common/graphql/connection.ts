import { type ClassType, Field, Int, ObjectType } from 'type-graphql';

@ObjectType()
export class PageInfo {
  @Field(() => Boolean)
  hasNextPage!: boolean;

  @Field(() => String, { nullable: true, description: 'Pass as `after` to read the next page.' })
  endCursor!: string | null;
}

export interface ConnectionShape<T> {
  totalCount: number;
  nodes: T[];
  pageInfo: PageInfo;
}

/** A list page: `totalCount` counts every matching row, `nodes` holds this page of them. */
export function Connection<T extends object>(node: ClassType<T>, name: string) {
  @ObjectType(name)
  class ConnectionClass implements ConnectionShape<T> {
    @Field(() => Int, { description: 'How many rows match the filter, over all pages.' })
    totalCount!: number;

    @Field(() => [node])
    nodes!: T[];

    @Field(() => PageInfo)
    pageInfo!: PageInfo;
  }
  return ConnectionClass;
}
