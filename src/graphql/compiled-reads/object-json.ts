import type { EntityMetadata, MetadataStorage } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/postgresql';
import {
  getNamedType,
  isLeafType,
  isObjectType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { collectSubfields } from 'graphql/execution/collectFields';
import { getMetadataStorage } from 'type-graphql';
import type { RequestContext } from '../../core/request-context';
import { columnOf, pathSql, quote } from '../../db/declared-sql';
import { declaredFields } from '../../modules/common';
import { sqlFormOf } from '../../modules/paging/graphql';
import { leafJson } from './json-values';
import { fromKnex, literal, objectText, raw, sql, type Sql } from './sql-text';

type Entity = abstract new () => unknown;

/** What compiling one operation's selection needs: the document, the request, fresh aliases. */
export interface CompileScope {
  readonly schema: GraphQLSchema;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly ctx: RequestContext;
  readonly metadata: MetadataStorage;
  readonly knex: Knex;
  /** A table alias not used yet in the statement. */
  alias(): string;
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
  return collectSubfields(scope.schema, scope.fragments, scope.variables, type, nodes);
}

/**
 * The JSON text of the object of entity type `type` in the row aliased `alias`, with the fields
 * `nodes` select; undefined when one of them has no SQL form (declared fields, `@ComputedSql`,
 * `@ReferenceSql` and `__typename` have one).
 */
export async function objectJson(
  scope: CompileScope,
  type: GraphQLObjectType,
  nodes: readonly FieldNode[],
  alias: string,
): Promise<Sql | undefined> {
  const entity = entityOf(scope, type);
  if (!entity) return undefined;
  const meta = scope.metadata.get(entity.name);
  const members: (readonly [string, Sql])[] = [];
  for (const [key, fieldNodes] of subfields(scope, type, nodes)) {
    const json = await fieldJson(scope, type, entity, meta, fieldNodes, alias);
    if (!json) return undefined;
    members.push([key, json]);
  }
  return objectText(members);
}

async function fieldJson(
  scope: CompileScope,
  type: GraphQLObjectType,
  entity: Entity,
  meta: EntityMetadata,
  nodes: readonly FieldNode[],
  alias: string,
): Promise<Sql | undefined> {
  const name = nodes[0]!.name.value;
  if (name === '__typename') return raw(literal(JSON.stringify(type.name)));
  const field = type.getFields()[name];
  if (!field || field.args.length > 0) return undefined;
  const declared = declaredFields(entity).find((f) => f.name === name);
  if (declared) {
    if (!isLeafType(getNamedType(field.type))) return undefined;
    const json = leafJson(field.type, pathSql(meta, declared.path, alias));
    if (!json || !declared.read) return json;
    const readable = declared.read.sql(scope.ctx.viewer, { id: `${quote(alias)}."id"` });
    if (readable === true) return json;
    if (readable === false) return raw(`'null'`);
    return sql`case when ${readable} then ${json} else 'null' end`;
  }
  const form = sqlFormOf(entity, name);
  if (form?.kind === 'expression') {
    const column = (property: string) =>
      `${quote(alias)}.${quote(columnOf(meta.properties[property as never]))}`;
    return leafJson(field.type, form.sql(column));
  }
  if (form?.kind === 'reference') {
    const target = getNamedType(field.type);
    const property = meta.properties[form.property as never];
    if (!isObjectType(target) || !property?.targetMeta) return undefined;
    const row = scope.alias();
    const object = await objectJson(scope, target, nodes, row);
    if (!object) return undefined;
    const id = `${quote(row)}."id"`;
    const visible = form.visible && (await form.visible(scope.ctx, scope.knex, id));
    const condition = visible ? sql` and ${fromKnex(visible.condition.toSQL())}` : '';
    const table = quote(property.targetMeta.tableName);
    return sql`coalesce((select ${object} from ${table} as ${quote(row)} where ${id} = ${quote(alias)}.${quote(columnOf(property))}${condition}), 'null')`;
  }
  return undefined;
}
