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
  accountId: number,
): Readonly<Record<string, string>> {
  const meta = metadata.get(type.name);
  return Object.fromEntries(
    declaredFields(type).map((field) => [field.name, pathSql(meta, field.path, alias, accountId)]),
  );
}

/**
 * The SQL of an entity property path over one row aliased `alias`: a column, or through a reference
 * (`project.uuid`) the referenced row's column, read in the account `accountId`.
 */
export function pathSql(
  meta: EntityMetadata,
  path: string,
  alias: string,
  accountId: number,
): string {
  const [name, through] = path.split('.') as [string, string | undefined];
  const property = propertyOf(meta, name);
  const column = `${quote(alias)}.${quote(columnOf(property))}`;
  if (through === undefined) return column;
  const target = property.targetMeta;
  if (!target) throw new Error(`${meta.className}.${name} is no reference`);
  const key = columnOf(propertyOf(target, target.primaryKeys[0]!));
  // The reference's own column holds the target's primary key: the integer id.
  if (propertyOf(target, through).fieldNames[0] === key) return column;
  return `(select ${quote(columnOf(propertyOf(target, through)))} from ${quote(target.tableName)} where ${quote(key)} = ${column}${andInAccount(target, undefined, accountId)})`;
}

/**
 * ` and <account column> = <accountId>` for a read of `meta`'s table (aliased `alias`), or nothing
 * for a table of no account. Every table a statement reads names its account as a constant, not
 * through the row it belongs to: on Citus that is what sends the whole statement to the one worker
 * that holds the account (docs/scaling.md). The column is `account_id`, and `accounts`' own `id`.
 */
export function andInAccount(
  meta: EntityMetadata,
  alias: string | undefined,
  accountId: number,
): string {
  // A tenant entity's `account` is its `account_id` (TenantEntity), as tenant-driver.ts reads it.
  const column =
    meta.tableName === 'accounts' ? 'id' : 'account' in meta.properties ? 'account_id' : undefined;
  if (!column) return '';
  if (!Number.isSafeInteger(accountId)) throw new Error(`${accountId} is no account id`);
  return ` and ${alias ? `${quote(alias)}.` : ''}${quote(column)} = ${accountId}`;
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
