import { Field, ID, InterfaceType } from 'type-graphql';

/**
 * Relay's global object identification: every object that stands for a stored row implements
 * `Node`, and `node(id:)` finds it by `id` alone. The `id` is the row's UUID, the id of the JSON
 * interface too; ids are unique across types (ids/node-ids.ts).
 */
@InterfaceType('Node', {
  description:
    'An object with an id that is unique across all types: `node(id:)` refetches it (Relay global object identification).',
})
export abstract class Node {
  // Read from `uuid`, the property that holds the id of every entity (`id` is its integer key);
  // a type whose `id` property is the uuid declares its own `id` field, which takes precedence.
  @Field(() => ID, {
    name: 'id',
    description: 'The UUID: the identifier of GraphQL and the JSON API, unique across types.',
  })
  uuid!: string;
}
