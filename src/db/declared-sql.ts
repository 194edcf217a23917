import type { EntityMetadata, EntityProperty, MetadataStorage } from '@mikro-orm/core';
import { declaredFields } from '../modules/common';

type Entity = abstract new (...args: never[]) => unknown;

/**
 * Each declared field's SQL form over one row of its table, read from MikroORM's metadata (the
 * column `@Property` names) and the declaration's path: a column (`"p"."name"`), a reference's
 * integer id (`"p"."company_id"`) or its uuid, which lives on the referenced row. Keyed by the
 * GraphQL name. These are what a read compiled to SQL selects, filters and orders by, so a field's
 * SQL, like its other forms, is not written again beside the declaration.
 */
export function declaredSql(
  metadata: MetadataStorage,
  type: Entity,
  alias: string,
): Readonly<Record<string, string>> {
  const meta = metadata.get(type.name);
  return Object.fromEntries(
    declaredFields(type).map((field) => [field.name, pathSql(meta, field.path, alias)]),
  );
}

/**
 * The SQL of an entity property path over one row aliased `alias`: a column, or through a reference
 * (`project.uuid`) the referenced row's column.
 */
export function pathSql(meta: EntityMetadata, path: string, alias: string): string {
  const [name, through] = path.split('.') as [string, string | undefined];
  const property = propertyOf(meta, name);
  const column = `${quote(alias)}.${quote(columnOf(property))}`;
  if (through === undefined) return column;
  const target = property.targetMeta;
  if (!target) throw new Error(`${meta.className}.${name} is no reference`);
  const key = columnOf(propertyOf(target, target.primaryKeys[0]!));
  // The reference's own column holds the target's primary key: the integer id.
  if (propertyOf(target, through).fieldNames[0] === key) return column;
  return `(select ${quote(columnOf(propertyOf(target, through)))} from ${quote(target.tableName)} where ${quote(key)} = ${column})`;
}

/** The property a path ends in (`project.uuid`: the project's `uuid`). */
export function pathProperty(meta: EntityMetadata, path: string): EntityProperty {
  const [name, through] = path.split('.') as [string, string | undefined];
  const property = propertyOf(meta, name);
  if (through === undefined) return property;
  if (!property.targetMeta) throw new Error(`${meta.className}.${name} is no reference`);
  return propertyOf(property.targetMeta, through);
}

function propertyOf(meta: EntityMetadata, name: string): EntityProperty {
  const property = meta.properties[name as keyof typeof meta.properties] as
    EntityProperty | undefined;
  if (!property) throw new Error(`${meta.className} has no property ${name}`);
  return property;
}

export function columnOf(property: EntityProperty): string {
  const [column, ...more] = property.fieldNames;
  if (!column || more.length > 0) throw new Error(`${property.name} is not one column`);
  return column;
}

export const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
