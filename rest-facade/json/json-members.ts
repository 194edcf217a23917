import type { FieldReader, NodeWriter } from '../../src/core/node-writer';

/**
 * A member of a legacy JSON object: named `key`, read at `path` in the GraphQL node (a field, or a
 * field of an object field: `['user', 'id']`), converted by `write` (the value as it is when
 * absent), left out when null where `omitNull` says so.
 */
export interface JsonMember {
  readonly key: string;
  readonly path: readonly [string, ...string[]];
  readonly write?: (value: unknown) => unknown;
  readonly omitNull?: boolean;
}

export type JsonMembers = readonly JsonMember[];

/** What lies at `path` in `value`: null where a step is missing or null. */
function valueAt(value: unknown, path: readonly string[]): unknown {
  for (const key of path) {
    if (value === null || value === undefined) return null;
    value = (value as Record<string, unknown>)[key];
  }
  return value ?? null;
}

/** A node as its wire object, member by member. */
export function wireObject(members: JsonMembers, node: unknown): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const member of members) {
    const value = valueAt(node, member.path);
    if (value === null && member.omitNull) continue;
    object[member.key] = value === null || !member.write ? value : member.write(value);
  }
  return object;
}

/**
 * The same objects written as text from a reader of the node's fields (a compiled read's rows):
 * what `JSON.stringify` writes of `wireObject`'s. A member read as it is is the field's own JSON
 * text; any other is its value, followed, converted and written.
 */
export function jsonNodeWriter(members: JsonMembers): NodeWriter {
  const parts = members.map((member): ((read: FieldReader) => string | undefined) => {
    const key = `${JSON.stringify(member.key)}:`;
    const [field, ...rest] = member.path;
    if (rest.length === 0 && !member.write && !member.omitNull)
      return (read) => key + read.json(field);
    return (read) => {
      const value = valueAt(read.value(field), rest);
      if (value === null) return member.omitNull ? undefined : `${key}null`;
      return key + JSON.stringify(member.write ? member.write(value) : value);
    };
  });
  return {
    fields: [...new Set(members.map((member) => member.path[0]))],
    node: (read) => {
      let text = '';
      for (const part of parts) {
        const written = part(read);
        if (written !== undefined) text += (text ? ',' : '') + written;
      }
      return `{${text}}`;
    },
    list: (nodes) => `[${nodes.join(',')}]`,
  };
}
