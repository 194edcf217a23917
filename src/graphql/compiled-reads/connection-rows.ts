import type { EntityMetadata } from '@mikro-orm/core';
import {
  getNamedType,
  isObjectType,
  type FieldNode,
  type GraphQLField,
  type GraphQLObjectType,
} from 'graphql';
import { pathProperty, pathSql, quote } from '../../db/declared-sql';
import { encodeCursor, listWindow, type ListSource } from '../../modules/paging';
import { pageBase } from './connection-json';
import { isoText, type LeafValue } from './json-values';
import {
  objectColumns,
  subfields,
  type CompileScope,
  type FieldSql,
  type PageArgs,
} from './object-json';
import { join, param, raw, sql, type Sql } from './sql-text';

/** A root list read as rows: its statement, and how its rows become the connection's JSON. */
export interface RowsPlan {
  readonly statement: Sql;
  write(rows: readonly Row[]): string;
}

type Row = Readonly<Record<string, LeafValue>>;

/** Writes one object of a row: its members' JSON after their keys. */
type ObjectWriter = (row: Row) => string;

/**
 * A root list's connection read as rows: PostgreSQL reads the page, one row per node with each
 * leaf value as a column (objects, child rows and nested pages as their JSON text), and
 * JavaScript writes the connection's JSON from them with writers made once per selection. V8
 * writes a long flat list several times faster than PostgreSQL concatenates it, and a statement's
 * own work is what a request waits for at low load; the nested parts stay PostgreSQL's, one
 * expression per row. The rows, cursors and `pageInfo` are those `connectionJson` writes.
 */
export async function connectionRows(
  scope: CompileScope,
  field: GraphQLField<unknown, unknown>,
  nodes: readonly FieldNode[],
  source: ListSource<object>,
  page: PageArgs,
): Promise<RowsPlan | undefined> {
  const connection = getNamedType(field.type) as GraphQLObjectType;
  const window = listWindow(scope.ctx, source, { ...page });
  const meta = scope.metadata.get(source.entityClass.name);
  const row = scope.alias();
  const columns: Sql[] = [];
  const joins: Sql[] = [];
  // Each member of an object as a column of the row, named by its place.
  const objectOf = async (
    type: GraphQLObjectType,
    fieldNodes: readonly FieldNode[],
  ): Promise<ObjectWriter | undefined> => {
    const object = await objectColumns(scope, type, fieldNodes, row);
    if (!object) return undefined;
    joins.push(object.joins);
    return objectWriter(object.members.map(([key, member]) => [key, column(member)]));
  };
  const column = (member: FieldSql): ((row: Row) => string) => {
    if ('constant' in member) return () => member.constant;
    const name = `c${columns.length}`;
    if ('json' in member) {
      columns.push(sql`${member.json} as ${quote(name)}`);
      return (r) => r[name] as string;
    }
    columns.push(
      sql`${{ text: member.leaf.column(member.value.text), params: member.value.params }} as ${quote(name)}`,
    );
    return (r) => member.leaf.write(r[name]!);
  };
  const typename = (type: GraphQLObjectType) => () => JSON.stringify(type.name);

  // What the connection's members write from the page: its rows in the order they are shown,
  // the count, whether more rows follow.
  type Page = { readonly rows: readonly Row[]; readonly total: string; readonly more: boolean };
  const members: (readonly [string, (p: Page) => string])[] = [];
  const cursorOf = (r: Row) =>
    `"${encodeCursor(
      window.terms,
      window.terms.map((_t, i) => r[`k${i}`]),
    )}"`;
  let counted = false;
  for (const [key, fieldNodes] of subfields(scope, connection, nodes)) {
    const name = fieldNodes[0]!.name.value;
    const type = connection.getFields()[name]?.type;
    const object = type && getNamedType(type);
    if (name === '__typename') members.push([key, typename(connection)]);
    else if (name === 'totalCount') {
      counted = true;
      members.push([key, (p) => p.total]);
    } else if (name === 'nodes' && isObjectType(object)) {
      const write = await objectOf(object, fieldNodes);
      if (!write) return undefined;
      members.push([key, (p) => `[${p.rows.map(write).join(',')}]`]);
    } else if (name === 'edges' && isObjectType(object)) {
      const edge: (readonly [string, (r: Row) => string])[] = [];
      for (const [edgeKey, edgeNodes] of subfields(scope, object, fieldNodes)) {
        const edgeField = edgeNodes[0]!.name.value;
        const node = getNamedType(object.getFields()[edgeField]!.type);
        const write =
          edgeField === '__typename'
            ? typename(object)
            : edgeField === 'cursor'
              ? cursorOf
              : isObjectType(node)
                ? await objectOf(node, edgeNodes)
                : undefined;
        if (!write) return undefined;
        edge.push([edgeKey, write]);
      }
      const write = objectWriter(edge);
      members.push([key, (p) => `[${p.rows.map(write).join(',')}]`]);
    } else if (name === 'pageInfo' && isObjectType(object)) {
      const flag = (value: boolean) => String(value);
      const info: (readonly [string, (p: Page) => string])[] = [];
      for (const [infoKey, infoNodes] of subfields(scope, object, fieldNodes)) {
        const infoName = infoNodes[0]!.name.value;
        const at = (p: Page, i: number) => (p.rows.length > 0 ? cursorOf(p.rows.at(i)!) : 'null');
        info.push([
          infoKey,
          infoName === '__typename'
            ? typename(object)
            : infoName === 'hasNextPage'
              ? (p) => flag(window.backwards ? window.before !== undefined : p.more)
              : infoName === 'hasPreviousPage'
                ? (p) => flag(window.backwards ? p.more : window.after !== undefined)
                : infoName === 'startCursor'
                  ? (p) => at(p, 0)
                  : (p) => at(p, -1),
        ]);
      }
      members.push([key, objectWriter(info)]);
    } else return undefined;
  }

  // The order of the read: the list's, reversed when reading backwards; ties end in the id.
  const order = window.terms
    .map((t) => `${pathSql(meta, t.path, 'x')} ${t.desc !== window.backwards ? 'desc' : 'asc'}`)
    .join(', ');
  const keys = cursorColumns(meta, window.terms, row);
  const total = counted
    ? sql`(select count(*) from (${await pageBase(scope, source, source.where, undefined)}) as "all")::text`
    : raw(`''`);
  const PAGE = quote(`${row}_page`);
  const statement = sql`with ${PAGE} as (select "x".*, row_number() over (order by ${order}) as "__n" from (${await pageBase(scope, source, window.pageWhere, undefined)}) as "x" order by ${order} limit ${param(window.limit + 1)}) select "t"."__total", "r".* from (select ${total} as "__total") as "t" left join lateral (select ${quote(row)}."__n", ${join([...keys, ...columns], ', ')} from ${PAGE} as ${quote(row)}${join(joins, '')}) as "r" on true order by "r"."__n"`;
  const write = objectWriter(members);
  return {
    statement,
    write: (rows) => {
      const read = rows.filter((r) => r.__n !== null);
      const shown = read.slice(0, window.limit);
      if (window.backwards) shown.reverse();
      return write({
        rows: shown,
        total: String(rows[0]?.__total ?? ''),
        more: read.length > window.limit,
      });
    },
  };
}

/** Writes an object from its members' writers, each after its key, as JSON.stringify would. */
function objectWriter<T>(members: readonly (readonly [string, (value: T) => string])[]) {
  const keys = members.map(([key], i) => `${i === 0 ? '' : ','}${JSON.stringify(key)}:`);
  const writers = members.map(([, write]) => write);
  return (value: T): string => {
    let text = '{';
    for (let i = 0; i < writers.length; i++) text += keys[i]! + writers[i]!(value);
    return `${text}}`;
  };
}

/**
 * The values of a row's cursor as columns (`k0`, `k1`, …), as `encodeCursor` takes them: instants
 * as ISO text with milliseconds, numbers and booleans as such, anything else as text.
 */
function cursorColumns(
  meta: EntityMetadata,
  terms: readonly { readonly path: string }[],
  alias: string,
): Sql[] {
  return terms.map((t, i) => {
    const expr = pathSql(meta, t.path, alias);
    const runtime = pathProperty(meta, t.path).runtimeType;
    const value =
      runtime === 'Date'
        ? isoText(expr)
        : runtime === 'number'
          ? `(${expr})::float8`
          : runtime === 'boolean'
            ? expr
            : `(${expr})::text`;
    return raw(`${value} as "k${i}"`);
  });
}
