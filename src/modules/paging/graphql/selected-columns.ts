import type { EntityMetadata, MetadataStorage } from '@mikro-orm/core';
import { getMetadataStorage } from 'type-graphql';

/**
 * Which columns a list reads: those behind the fields its nodes select, not every column.
 *
 * A selected field that is an entity property (`start`, `notes`, `legacyId` for `id`) reads its
 * own column. A derived field (a getter on the entity, a field resolver of any module) says what
 * it reads with `@ReadsColumns` at its declaration; one that says nothing makes the list read
 * every column, so a field can be slow but never wrong. The row's id and its references (foreign
 * keys, which batches and policies go by) are always read.
 */

const declaredOf = new Map<object, Map<string, readonly string[]>>();

/**
 * Declares the properties a derived field of `type` reads from its row, besides the id and the
 * references (`@ReadsColumns(Project, 'timeLimit')` on `timeLeft`; nothing for a field that only
 * follows a reference).
 */
export function ReadsColumns<T>(
  type: abstract new () => T,
  ...properties: (keyof T & string)[]
): MethodDecorator {
  return (_prototype, field) => {
    const fields = declaredOf.get(type) ?? new Map<string, readonly string[]>();
    fields.set(String(field), properties);
    declaredOf.set(type, fields);
  };
}

/**
 * The properties of `type` a list must read for the `selected` fields of its nodes (plus `also`,
 * the order's own columns), or undefined when that is all of them.
 */
export function columnsFor(
  metadata: MetadataStorage,
  type: abstract new () => unknown,
  selected: ReadonlySet<string>,
  also: readonly string[] = [],
): string[] | undefined {
  const entity = metadata.get(type.name);
  const readable = readableProperties(entity);
  const declared = declaredOf.get(type);
  const wanted = new Set<string>(also);
  for (const prop of entity.props) if (prop.kind === 'm:1' || prop.primary) wanted.add(prop.name);
  for (const field of selected) {
    if (field === '__typename') continue;
    const property = propertyOfField(type, field);
    const reads = declared?.get(field);
    if (reads) for (const name of reads) wanted.add(name);
    else if (property !== undefined && readable.has(property)) wanted.add(property);
    else return undefined;
  }
  return wanted.size < readable.size ? [...wanted].filter((name) => readable.has(name)) : undefined;
}

const readableOf = new WeakMap<EntityMetadata, Set<string>>();

/** The persisted single-column properties: what a row built from columns holds (once per entity). */
function readableProperties(entity: EntityMetadata): Set<string> {
  const known = readableOf.get(entity);
  if (known) return known;
  const readable = new Set(
    entity.props
      .filter((p) => p.persist !== false && p.fieldNames?.length === 1)
      .filter((p) => p.kind === 'scalar' || p.kind === 'm:1')
      .map((p) => p.name),
  );
  readableOf.set(entity, readable);
  return readable;
}

const propertiesOf = new Map<object, Map<string, string>>();

/** The class property behind a GraphQL field declared with `@Field` on the class or its parents. */
function propertyOfField(type: abstract new () => unknown, field: string): string | undefined {
  let properties = propertiesOf.get(type);
  if (!properties) {
    properties = new Map();
    const chain: unknown[] = [];
    for (let target: unknown = type; typeof target === 'function';) {
      chain.push(target);
      target = Object.getPrototypeOf(target);
    }
    // Parents first, so a subclass's own declaration of a field wins.
    for (const target of chain.reverse())
      for (const f of getMetadataStorage().fields)
        if (f.target === target) properties.set(f.schemaName, f.name);
    propertiesOf.set(type, properties);
  }
  return properties.get(field);
}
