import type { EntityMetadata, MetadataStorage } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/postgresql';
import {
  getArgumentValues,
  getNamedType,
  getNullableType,
  isLeafType,
  isAbstractType,
  isListType,
  isObjectType,
  Kind,
  type FieldNode,
  type NamedTypeNode,
  type SelectionSetNode,
  type GraphQLField,
  type GraphQLOutputType,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { collectSubfields } from 'graphql/execution/collectFields';
import { getMetadataStorage } from 'type-graphql';
import type { RequestContext } from '../../core/request-context';
import { andInAccount, columnOf, pathSql, quote } from '../../db/declared-sql';
import { classChain, declaredFields } from '../../modules/common';
import type { ListSource } from '../../modules/paging';
import {
  sqlFormOf,
  type CompiledList,
  type ListArgs,
  type SqlForm,
  type SqlRow,
} from '../../modules/paging/graphql';
import { leafForm, type LeafForm } from './json-values';
import { fromKnex, join, literal, objectText, raw, sql, type Sql } from './sql-text';

type Entity = abstract new () => unknown;

/** What compiling one operation's selection needs: the document, the request, fresh aliases. */
export interface CompileScope {
  readonly schema: GraphQLSchema;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly ctx: RequestContext;
  readonly metadata: MetadataStorage;
  readonly knex: Knex;
  /** The lists that compile, by field (`Query.shifts`, `Company.projects`). */
  readonly lists: ReadonlyMap<string, CompiledList>;
  /** connection-json.ts's `connectionJson`, which compiles the objects of its pages with this file. */
  readonly connection: (
    scope: CompileScope,
    field: GraphQLField<unknown, unknown>,
    nodes: readonly FieldNode[],
    source: ListSource<object>,
    page: PageArgs,
    parent?: { readonly column: string; readonly id: string },
  ) => Promise<Sql | undefined>;
  /** A table alias not used yet in the statement. */
  alias(): string;
}

/** A connection's page arguments. */
export interface PageArgs {
  readonly first?: number | null;
  readonly last?: number | null;
  readonly after?: string | null;
  readonly before?: string | null;
}

const entitiesByType = new Map<string, Entity>();

/** The entity class behind a GraphQL object type (type-graphql's metadata), if it is one. */
export function entityOf(scope: CompileScope, type: GraphQLObjectType): Entity | undefined {
  if (entitiesByType.size === 0)
    for (const t of getMetadataStorage().objectTypes)
      entitiesByType.set(t.name, t.target as Entity);
  const entity = entitiesByType.get(type.name);
  return entity && scope.metadata.find(entity.name) ? entity : undefined;
}

/** The subfields `nodes` select on `type`, by response key (fragments, `@skip`, `@include` applied). */
export function subfields(
  scope: CompileScope,
  type: GraphQLObjectType,
  nodes: readonly FieldNode[],
): Map<string, readonly FieldNode[]> {
  return inExecutorOrder(
    scope,
    type,
    nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : [])),
    collectSubfields(scope.schema, scope.fragments, scope.variables, type, nodes),
  );
}

/**
 * Collected fields in the order the executor (graphql-jit) writes them: each response key where it
 * first appears in the document, whether or not `@skip`/`@include` keeps that appearance
 * (graphql-js orders by the first appearance kept, which differs only when a field skipped in one
 * place is selected in another). The compiled answer must be the executor's to the byte.
 */
export function inExecutorOrder(
  scope: Pick<CompileScope, 'schema' | 'fragments'>,
  type: GraphQLObjectType,
  selectionSets: readonly SelectionSetNode[],
  collected: Map<string, readonly FieldNode[]>,
): Map<string, readonly FieldNode[]> {
  const order = new Map<string, number>();
  const visited = new Set<string>();
  const matches = (condition: NamedTypeNode | undefined) => {
    if (!condition) return true;
    const named = scope.schema.getType(condition.name.value);
    return named === type || (isAbstractType(named) && scope.schema.isSubType(named, type));
  };
  const walk = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        if (!order.has(key)) order.set(key, order.size);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (matches(selection.typeCondition)) walk(selection.selectionSet);
      } else if (!visited.has(selection.name.value)) {
        visited.add(selection.name.value);
        const fragment = scope.fragments[selection.name.value];
        if (fragment && matches(fragment.typeCondition)) walk(fragment.selectionSet);
      }
    }
  };
  selectionSets.forEach(walk);
  return new Map([...collected].sort(([a], [b]) => order.get(a)! - order.get(b)!));
}

/**
 * An object's JSON text over its row, and the LATERAL subqueries its fields read (values computed
 * once per row, `SqlRow.lateral`), to join after the row: `from <rows> as "r1"${joins}`.
 */
export interface ObjectJson {
  readonly json: Sql;
  readonly joins: Sql;
}

/** The row an object is read from: its alias, its entity's metadata, its LATERAL values by key. */
interface RowScope {
  readonly alias: string;
  readonly meta: EntityMetadata;
  readonly laterals: Map<string, { readonly alias: string; readonly select: Sql }>;
}

/**
 * The JSON text of the object of entity type `type` in the row aliased `alias`, with the fields
 * `nodes` select; undefined when one of them has no SQL form (declared fields, `@ComputedSql`,
 * `@ReferenceSql`, `@RowsSql`, plain columns and `__typename` have one).
 */
export async function objectJson(
  scope: CompileScope,
  type: GraphQLObjectType,
  nodes: readonly FieldNode[],
  alias: string,
): Promise<ObjectJson | undefined> {
  const columns = await objectColumns(scope, type, nodes, alias);
  if (!columns) return undefined;
  return {
    json: objectText(columns.members.map(([key, field]) => [key, fieldJson(field)])),
    joins: columns.joins,
  };
}

/**
 * A field in SQL: its JSON text (an object, a list, a nested page), or a leaf's value with the
 * form that writes it, so that a row read by JavaScript can take the value as a column.
 */
export type FieldSql =
  | { readonly json: Sql }
  | { readonly leaf: LeafForm; readonly value: Sql }
  | { readonly constant: string };

/** A field's JSON text in SQL. */
export function fieldJson(field: FieldSql): Sql {
  if ('json' in field) return field.json;
  if ('constant' in field) return raw(literal(field.constant));
  return { text: field.leaf.json(field.value.text), params: field.value.params };
}

/**
 * The fields `nodes` select of the object of entity type `type` in the row aliased `alias`, each
 * in SQL, with the LATERAL joins they read; undefined when one of them has no SQL form.
 */
export async function objectColumns(
  scope: CompileScope,
  type: GraphQLObjectType,
  nodes: readonly FieldNode[],
  alias: string,
): Promise<{ members: (readonly [string, FieldSql])[]; joins: Sql } | undefined> {
  const entity = entityOf(scope, type);
  if (!entity) return undefined;
  const row: RowScope = { alias, meta: scope.metadata.get(entity.name), laterals: new Map() };
  const members: (readonly [string, FieldSql])[] = [];
  for (const [key, fieldNodes] of subfields(scope, type, nodes)) {
    const field = await fieldSql(scope, type, entity, row, fieldNodes);
    if (!field) return undefined;
    members.push([key, field]);
  }
  // LEFT JOIN LATERAL, not a subquery in the select list: PostgreSQL pulls a simple one (a
  // reference's row) up into a join it can hash, instead of running it once per row.
  const joins = [...row.laterals.values()].map(
    (l) => sql` left join lateral (${l.select}) as ${quote(l.alias)} on true`,
  );
  return { members, joins: join(joins, '') };
}

async function fieldSql(
  scope: CompileScope,
  type: GraphQLObjectType,
  entity: Entity,
  row: RowScope,
  nodes: readonly FieldNode[],
): Promise<FieldSql | undefined> {
  const { alias, meta } = row;
  const name = nodes[0]!.name.value;
  if (name === '__typename') return { constant: JSON.stringify(type.name) };
  const field = type.getFields()[name];
  if (!field) return undefined;
  const leaf = (value: Sql | string | undefined) => {
    const form = leafForm(field.type);
    return form && value !== undefined
      ? { leaf: form, value: typeof value === 'string' ? raw(value) : value }
      : undefined;
  };
  const json = (value: Sql | undefined) => value && { json: value };
  const list = scope.lists.get(`${type.name}.${name}`);
  if (list) {
    const args = getArgumentValues(field, nodes[0]!, scope.variables) as ListArgs & PageArgs;
    const source = await list(scope.ctx, args);
    const child = scope.metadata.get(source.entityClass.name);
    const parent = source.parent && child.properties[source.parent as never];
    if (!parent) throw new Error(`${type.name}.${name} names no parent reference`);
    return json(
      await scope.connection(scope, field, nodes, source, args, {
        column: columnOf(parent),
        id: `${quote(alias)}."id"`,
      }),
    );
  }
  if (field.args.length > 0) return undefined;
  const declared = declaredFields(entity).find((f) => f.name === name);
  if (declared) {
    if (!isLeafType(getNamedType(field.type))) return undefined;
    const value = declaredPath(scope, row, declared.path);
    if (!declared.read) return leaf(value);
    const readable = declared.read.sql(scope.ctx.viewer, { id: `${quote(alias)}."id"` });
    if (readable === true) return leaf(value);
    if (readable === false) return leafForm(field.type) && { constant: 'null' };
    return leaf(`case when ${readable} then ${value} end`);
  }
  const form = sqlFormOf(entity, name);
  if (form?.kind === 'expression') {
    const params: unknown[] = [];
    return leaf({ text: form.sql(sqlRow(scope, row, params)), params });
  }
  if (form?.kind === 'rows') return json(await rowsJson(scope, form, field.type, nodes, row));
  if (form?.kind === 'reference') {
    const target = getNamedType(field.type);
    const property = meta.properties[form.property as never];
    if (!isObjectType(target) || !property?.targetMeta) return undefined;
    const referenced = scope.alias();
    const object = await objectJson(scope, target, nodes, referenced);
    if (!object) return undefined;
    const id = `${quote(referenced)}."id"`;
    const visible = form.visible && (await form.visible(scope.ctx, scope.knex, id));
    const condition = visible ? sql` and ${fromKnex(visible.condition.toSQL())}` : '';
    const table = quote(property.targetMeta.tableName);
    const account = andInAccount(property.targetMeta, referenced, scope.ctx.viewer.accountId);
    const joined = joinRow(
      scope,
      row,
      referenced,
      () =>
        sql`select ${object.json} as "json" from ${table} as ${quote(referenced)}${object.joins} where ${id} = ${quote(alias)}.${quote(columnOf(property))}${account}${condition}`,
    );
    return json(raw(`coalesce(${joined}."json", 'null')`));
  }
  const column = plainColumn(entity, meta, name);
  return column ? leaf(`${quote(alias)}.${quote(column)}`) : undefined;
}

/**
 * A declared field's path in SQL: a column of the row, or of the row it references
 * (`project.uuid`), read from that row joined once after this one however many fields read it.
 */
function declaredPath(scope: CompileScope, row: RowScope, path: string): string {
  const [name, through] = path.split('.') as [string, string | undefined];
  const property = row.meta.properties[name as never];
  const target = through === undefined ? undefined : property.targetMeta;
  const key = target && columnOf(target.properties[target.primaryKeys[0] as never]);
  const column = target && columnOf(target.properties[through as never]);
  // A path to the referenced id is the reference's own column.
  const accountId = scope.ctx.viewer.accountId;
  if (!target || column === key) return pathSql(row.meta, path, row.alias, accountId);
  const joined = joinRow(scope, row, `reference:${name}`, () =>
    raw(
      `select * from ${quote(target.tableName)} where ${quote(key!)} = ${quote(row.alias)}.${quote(columnOf(property))}${andInAccount(target, undefined, accountId)}`,
    ),
  );
  return `${joined}.${quote(column!)}`;
}

/** The alias of the row `select` reads, joined LATERAL after `row` once per key. */
function joinRow(scope: CompileScope, row: RowScope, key: string, select: () => Sql): string {
  let lateral = row.laterals.get(key);
  if (!lateral) {
    lateral = { alias: scope.alias(), select: select() };
    row.laterals.set(key, lateral);
  }
  return quote(lateral.alias);
}

/**
 * The column of a field that is an entity's persisted property as it is (`@Field` on a
 * `@Property`, no field resolver, no declaration): what the executor answers is the column's value.
 */
function plainColumn(entity: Entity, meta: EntityMetadata, name: string): string | undefined {
  const key = `${meta.className}.${name}`;
  if (!plainColumns.has(key)) {
    const storage = getMetadataStorage();
    const chain = new Set(classChain(entity));
    const field = storage.fields.find((f) => chain.has(f.target) && f.schemaName === name);
    const resolved = storage.fieldResolvers.some(
      (r) => r.schemaName === name && chain.has(r.getObjectType?.() as object),
    );
    const property = field && meta.properties[field.name as never];
    const plain = property && !resolved && property.kind === 'scalar' && property.persist !== false;
    plainColumns.set(
      key,
      plain && property.fieldNames.length === 1 ? property.fieldNames[0] : undefined,
    );
  }
  return plainColumns.get(key);
}

/** `plainColumn`'s answers by `Entity.field`: the metadata it reads is fixed once the schema is built. */
const plainColumns = new Map<string, string | undefined>();

/**
 * A row for an SQL form: its columns by property, placeholders for the request's values (whose
 * values `params` collects in the order the form calls `param`, the order its text reads), and
 * values computed once per row, joined LATERAL after it.
 */
function sqlRow(scope: CompileScope, row: RowScope, params: unknown[]): SqlRow {
  return {
    column: (property) =>
      `${quote(row.alias)}.${quote(columnOf(row.meta.properties[property as never]))}`,
    param: (value) => {
      params.push(value);
      return '?';
    },
    lateral: (key, select) =>
      joinRow(scope, row, key, () => {
        const own: unknown[] = [];
        return { text: select(sqlRow(scope, row, own)), params: own };
      }),
    request: {
      viewerId: scope.ctx.viewer.id,
      accountId: scope.ctx.viewer.accountId,
      now: scope.ctx.now,
    },
  };
}

/** A `rows` form: the JSON list (or the one object) of the rows it picks over the parent row. */
async function rowsJson(
  scope: CompileScope,
  form: Extract<SqlForm, { kind: 'rows' }>,
  type: GraphQLOutputType,
  nodes: readonly FieldNode[],
  parent: RowScope,
): Promise<Sql | undefined> {
  const target = getNamedType(type);
  const list = isListType(getNullableType(type));
  if (!isObjectType(target) || (list && !form.order)) return undefined;
  const alias = scope.alias();
  const object = await objectJson(scope, target, nodes, alias);
  if (!object) return undefined;
  const own: RowScope = {
    alias,
    meta: scope.metadata.get(form.entity().name),
    laterals: new Map(),
  };
  // Each text with the parameters its placeholders read, in order.
  const over = (text: (parent: SqlRow, row: SqlRow) => string): Sql => {
    const params: unknown[] = [];
    return { text: text(sqlRow(scope, parent, params), sqlRow(scope, own, params)), params };
  };
  const from = sql`${quote(own.meta.tableName)} as ${quote(alias)}${object.joins}`;
  const where = over(
    (parent, row) =>
      `${form.where(parent, row)}${andInAccount(own.meta, alias, scope.ctx.viewer.accountId)}`,
  );
  if (!list) return sql`coalesce((select ${object.json} from ${from} where ${where}), 'null')`;
  return sql`'[' || coalesce((select string_agg(${object.json}, ',' order by ${over(form.order!)}) from ${from} where ${where}), '') || ']'`;
}
