/**
 * How an in-process caller that writes its own JSON (the facade's legacy objects) wants the nodes
 * of a root list: each member of its object named `key`, read at `path` in the GraphQL node (a
 * field, or a field of an object field: `['user', 'id']`) and converted by `write` (the value as
 * it is when absent), left out when null where `omitNull` says so. The same members render a node
 * the executor answered, so a compiled read and an executed one write the same text.
 */
export interface WireMember {
  readonly key: string;
  readonly path: readonly [string, ...string[]];
  readonly write?: (value: unknown) => unknown;
  readonly omitNull?: boolean;
}

export type NodeWire = readonly WireMember[];

/** What lies at `path` in `value`: null where a step is missing or null. */
export function valueAt(value: unknown, path: readonly string[]): unknown {
  for (const key of path) {
    if (value === null || value === undefined) return null;
    value = (value as Record<string, unknown>)[key];
  }
  return value ?? null;
}

/** A node as its wire object, member by member (what `JSON.stringify` of it writes `NodeWire`'s text for). */
export function wireObject(wire: NodeWire, node: unknown): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const member of wire) {
    const value = valueAt(node, member.path);
    if (value === null && member.omitNull) continue;
    object[member.key] = value === null || !member.write ? value : member.write(value);
  }
  return object;
}

/**
 * A list already written as JSON text (`[…]`, its `length` items): what a compiled read answers for
 * the nodes an in-process caller asked as its `NodeWire`, for it to write as it is.
 */
export class JsonText {
  constructor(
    readonly text: string,
    readonly length: number,
  ) {}
}
