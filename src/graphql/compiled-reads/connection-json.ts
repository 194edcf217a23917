import type { EntityMetadata } from '@mikro-orm/core';
import type { QBFilterQuery } from '@mikro-orm/postgresql';
import {
  getNamedType,
  isObjectType,
  type FieldNode,
  type GraphQLField,
  type GraphQLObjectType,
} from 'graphql';
import { pathProperty, pathSql, quote } from '../../db/declared-sql';
import {
  listWindow,
  type ListSource,
  type PageRequest,
  type PageWindow,
  applyTenantFilters,
} from '../../modules/paging';
import { isoText } from './json-values';
import {
  objectJson,
  subfields,
  type CompileScope,
  type ObjectJson,
  type PageArgs,
} from './object-json';
import { fromKnex, join, literal, objectText, param, raw, sql, type Sql } from './sql-text';

/**
 * The JSON of a list's connection (`totalCount`, `nodes`, `edges`, `pageInfo`) as one SQL
 * expression: the page of `source` the arguments ask for, read as `findPage` and `childPage` read
 * it (the same where-object, order and cursors, one row more than the page), and written by
 * PostgreSQL. A nested list's rows are those whose `parent.column` is the parent row's id
 * (`parent.id`, an SQL expression), a page per parent. Undefined when the selection has a field
 * without an SQL form.
 */
export async function connectionJson(
  scope: CompileScope,
  field: GraphQLField<unknown, unknown>,
  nodes: readonly FieldNode[],
  source: ListSource<object>,
  page: PageArgs,
  parent?: { readonly column: string; readonly id: string },
): Promise<Sql | undefined> {
  const connection = getNamedType(field.type) as GraphQLObjectType;
  const selected = subfields(scope, connection, nodes);
  const window = listWindow(scope.ctx, source, pageRequest(page));
  // The rows of the page, numbered in the order they are read (`__n`), as a CTE of its own.
  const ROW = scope.alias();
  const PAGE = quote(`${ROW}_page`);
  const meta = scope.metadata.get(source.entityClass.name);
  const emitted = window.backwards ? 'desc' : 'asc';
  const inPage = sql`${quote(ROW)}."__n" <= ${param(window.limit)}`;
  const cursor = cursorText(meta, window.terms, ROW, scope.ctx.viewer.accountId);
  const rows = ({ json, joins }: ObjectJson) =>
    sql`coalesce((select string_agg(${json}, ',' order by ${quote(ROW)}."__n" ${emitted}) from ${PAGE} as ${quote(ROW)}${joins} where ${inPage}), '')`;
  const edgeAt = (order: 'asc' | 'desc') =>
    sql`coalesce((select '"' || ${cursor} || '"' from ${PAGE} as ${quote(ROW)} where ${inPage} order by ${quote(ROW)}."__n" ${order} limit 1), 'null')`;
  const hasMore = sql`case when exists (select from ${PAGE} where "__n" > ${param(window.limit)}) then 'true' else 'false' end`;
  const given = (cursorGiven: boolean) => raw(cursorGiven ? `'true'` : `'false'`);

  const members: (readonly [string, Sql])[] = [];
  for (const [key, fieldNodes] of selected) {
    const name = fieldNodes[0]!.name.value;
    const type = connection.getFields()[name]?.type;
    const object = type && getNamedType(type);
    let json: Sql | undefined;
    if (name === '__typename') json = raw(literal(JSON.stringify(connection.name)));
    else if (name === 'totalCount') json = await countSql(scope, source, parent);
    else if (name === 'nodes' && isObjectType(object)) {
      const node = await objectJson(scope, object, fieldNodes, ROW);
      json = node && sql`'[' || ${rows(node)} || ']'`;
    } else if (name === 'edges' && isObjectType(object)) {
      const edge = await edgeJson(scope, object, fieldNodes, cursor, ROW);
      json = edge && sql`'[' || ${rows(edge)} || ']'`;
    } else if (name === 'pageInfo' && isObjectType(object)) {
      const info: (readonly [string, Sql])[] = [];
      for (const [infoKey, infoNodes] of subfields(scope, object, fieldNodes)) {
        const infoName = infoNodes[0]!.name.value;
        info.push([
          infoKey,
          infoName === '__typename'
            ? raw(literal(JSON.stringify(object.name)))
            : infoName === 'hasNextPage'
              ? window.backwards
                ? given(window.before !== undefined)
                : hasMore
              : infoName === 'hasPreviousPage'
                ? window.backwards
                  ? hasMore
                  : given(window.after !== undefined)
                : infoName === 'startCursor'
                  ? edgeAt(emitted)
                  : edgeAt(emitted === 'asc' ? 'desc' : 'asc'),
        ]);
      }
      json = objectText(info);
    }
    if (!json) return undefined;
    members.push([key, json]);
  }

  return sql`(with ${await pageCte(scope, source, window, PAGE, parent)} select ${objectText(members)})`;
}

/**
 * The CTE `name` of a page: the rows of the window's where (of one parent, for a nested list) in
 * the list's order, reversed when reading backwards, numbered (`__n`), one more than the page.
 */
export async function pageCte(
  scope: CompileScope,
  source: ListSource<object>,
  window: PageWindow & { readonly pageWhere: object },
  name: string,
  parent?: { readonly column: string; readonly id: string },
): Promise<Sql> {
  const meta = scope.metadata.get(source.entityClass.name);
  // Ties end in the id: every order's last term.
  const order = window.terms
    .map(
      (t) =>
        `${pathSql(meta, t.path, 'x', scope.ctx.viewer.accountId)} ${t.desc !== window.backwards ? 'desc' : 'asc'}`,
    )
    .join(', ');
  return sql`${name} as (select "x".*, row_number() over (order by ${order}) as "__n" from (${await pageBase(scope, source, window.pageWhere, parent)}) as "x" order by ${order} limit ${param(window.limit + 1)})`;
}

/** How many rows the list has (of one parent, for a nested list), whatever the page: `totalCount`. */
export async function countSql(
  scope: CompileScope,
  source: ListSource<object>,
  parent?: { readonly column: string; readonly id: string },
): Promise<Sql> {
  return sql`(select count(*) from (${await pageBase(scope, source, source.where, parent)}) as "all")::text`;
}

/**
 * The rows of `source` under `where` and the tenant filter (of one parent, for a nested list),
 * every column: the page's input.
 */
async function pageBase(
  scope: CompileScope,
  source: ListSource<object>,
  where: object,
  parent: { readonly column: string; readonly id: string } | undefined,
): Promise<Sql> {
  const qb = scope.ctx.em
    .createQueryBuilder(source.entityClass)
    .select('*')
    .where(where as QBFilterQuery<object>);
  if (parent) qb.andWhere(`${qb.alias}.${quote(parent.column)} = ${parent.id}`);
  await applyTenantFilters(scope.ctx.em, qb);
  return fromKnex(qb.getKnexQuery().toSQL());
}

/** The page arguments of a list's arguments. */
export function pageRequest({ first, last, after, before }: PageArgs): PageRequest {
  return { first, last, after, before };
}

async function edgeJson(
  scope: CompileScope,
  edge: GraphQLObjectType,
  nodes: readonly FieldNode[],
  cursor: Sql,
  row: string,
): Promise<ObjectJson | undefined> {
  const members: (readonly [string, Sql])[] = [];
  const joins: Sql[] = [];
  for (const [key, fieldNodes] of subfields(scope, edge, nodes)) {
    const name = fieldNodes[0]!.name.value;
    const node = getNamedType(edge.getFields()[name]!.type);
    let json: Sql | undefined;
    if (name === '__typename') json = raw(literal(JSON.stringify(edge.name)));
    else if (name === 'cursor') json = sql`'"' || ${cursor} || '"'`;
    else if (isObjectType(node)) {
      const object = await objectJson(scope, node, fieldNodes, row);
      if (object) joins.push(object.joins);
      json = object?.json;
    }
    if (!json) return undefined;
    members.push([key, json]);
  }
  return { json: objectText(members), joins: join(joins, '') };
}

/**
 * A row's keyset cursor, as `encodeCursor` writes it: base64url of `["<order>",[values…]]`, the
 * values as JSON (instants as ISO text with milliseconds, numeric text as text).
 */
function cursorText(
  meta: EntityMetadata,
  terms: readonly { readonly path: string; readonly desc: boolean }[],
  alias: string,
  accountId: number,
): Sql {
  const key = terms.map((t) => `${t.path}:${t.desc ? 'desc' : 'asc'}`).join(',');
  const values = terms.map((t) => {
    const expr = pathSql(meta, t.path, alias, accountId);
    const runtime = pathProperty(meta, t.path).runtimeType;
    const json =
      runtime === 'Date'
        ? `'"' || ${isoText(expr)} || '"'`
        : runtime === 'number' || runtime === 'boolean'
          ? `to_json(${expr})::text`
          : `to_json((${expr})::text)::text`;
    return raw(`coalesce(${json}, 'null')`);
  });
  const text = join(
    [raw(literal(`[${JSON.stringify(key)},[`)), join(values, ` || ',' || `), raw(`']]'`)],
    ' || ',
  );
  return sql`translate(encode(convert_to(${text}, 'UTF8'), 'base64'), '+/=' || chr(10), '-_')`;
}
