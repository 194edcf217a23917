import type { EntityMetadata } from '@mikro-orm/core';
import {
  getNamedType,
  isObjectType,
  type FieldNode,
  type GraphQLField,
  type GraphQLObjectType,
} from 'graphql';
import { WrittenNodes, type FieldReader, type NodeWriter } from '../../core/node-writer';
import { pathProperty, pathSql, quote } from '../../db/declared-sql';
import { encodeCursor, listWindow, type ListSource } from '../../modules/paging';
import { countSql, pageCte, pageRequest } from './connection-json';
import { isoText, type LeafValue } from './json-values';
import {
  objectColumns,
  subfields,
  type CompileScope,
  type FieldSql,
  type PageArgs,
} from './object-json';
import { join, raw, sql, type Sql } from './sql-text';

/**
 * A root field read as rows: its statement, and how its rows become the answer: its JSON text
 * (for an answer written as text) or its value (for a caller in the process); undefined when
 * the rows hold no answer (a lookup that found nothing), for the executor to give.
 */
export interface RowsPlan {
  readonly statement: Sql;
  write(rows: readonly Row[]): string | undefined;
  read(rows: readonly Row[]): unknown;
  /**
   * How many rows a connection's page shows, where its answer lists them under `nodes` or `edges`
   * (where the executor's answer would show them too): what its cost counts as read.
   */
  shown?(rows: readonly Row[]): number;
}

type Row = Readonly<Record<string, LeafValue>>;

/** A part of the answer made from `T`: as JSON text, and as the value JSON.parse would give. */
interface Emit<T> {
  text(from: T): string;
  value(from: T): unknown;
}

/** The page the connection's members are made from. */
interface Page {
  /** Its rows in the order they are shown. */
  readonly rows: readonly Row[];
  readonly total: string;
  /** Whether rows follow in the direction of reading. */
  readonly more: boolean;
}

/**
 * A root list's connection read as rows: PostgreSQL reads the page, one row per node with each
 * leaf value as a column (objects, child rows and nested pages as their JSON text), and
 * JavaScript makes the connection from them with emitters made once per selection. V8 writes a
 * long flat list several times faster than PostgreSQL concatenates it, and a statement's own work
 * is what a request waits for at low load; the nested parts stay PostgreSQL's, one expression per
 * row. The rows, cursors and `pageInfo` are those `connectionJson` writes.
 */
export async function connectionRows(
  scope: CompileScope,
  field: GraphQLField<unknown, unknown>,
  nodes: readonly FieldNode[],
  source: ListSource<object>,
  page: PageArgs,
): Promise<RowsPlan | undefined> {
  const connection = getNamedType(field.type) as GraphQLObjectType;
  const window = listWindow(scope.ctx, source, pageRequest(page));
  const meta = scope.metadata.get(source.entityClass.name);
  const row = scope.alias();
  const { columns, joins, objectOf } = rowColumns(scope, row);
  const typename = (type: GraphQLObjectType) => constant(JSON.stringify(type.name));
  const cursorOf = (r: Row) =>
    encodeCursor(
      window.terms,
      window.terms.map((_t, i) => r[`k${i}`]),
    );
  const cursor: Emit<Row> = { text: (r) => `"${cursorOf(r)}"`, value: cursorOf };
  const flag = (of: (p: Page) => boolean): Emit<Page> => ({
    text: (p) => String(of(p)),
    value: of,
  });
  const cursorAt = (i: number): Emit<Page> => ({
    text: (p) => (p.rows.length > 0 ? cursor.text(p.rows.at(i)!) : 'null'),
    value: (p) => (p.rows.length > 0 ? cursor.value(p.rows.at(i)!) : null),
  });

  const members: (readonly [string, Emit<Page>])[] = [];
  let counted = false;
  let listed = false;
  for (const [key, fieldNodes] of subfields(scope, connection, nodes)) {
    const name = fieldNodes[0]!.name.value;
    const type = connection.getFields()[name]?.type;
    const object = type && getNamedType(type);
    if ((name === 'nodes' || name === 'edges') && (key === 'nodes' || key === 'edges'))
      listed = true;
    if (name === '__typename') members.push([key, typename(connection)]);
    else if (name === 'totalCount') {
      counted = true;
      members.push([key, { text: (p) => p.total, value: (p) => Number(p.total) }]);
    } else if (name === 'nodes' && isObjectType(object)) {
      const node = await objectOf(object, fieldNodes);
      if (!node) return undefined;
      // A caller that writes the nodes itself gets them written, from the rows.
      const writer = scope.ctx.nodeWriter;
      const written = key === 'nodes' && writer && writer.fields.every((f) => node.members.has(f));
      members.push([key, written ? writtenList(writer, node) : listEmit(node)]);
    } else if (name === 'edges' && isObjectType(object)) {
      const edge: (readonly [string, Emit<Row>])[] = [];
      for (const [edgeKey, edgeNodes] of subfields(scope, object, fieldNodes)) {
        const edgeField = edgeNodes[0]!.name.value;
        const node = getNamedType(object.getFields()[edgeField]!.type);
        const emit =
          edgeField === '__typename'
            ? typename(object)
            : edgeField === 'cursor'
              ? cursor
              : isObjectType(node)
                ? await objectOf(node, edgeNodes)
                : undefined;
        if (!emit) return undefined;
        edge.push([edgeKey, emit]);
      }
      members.push([key, listEmit(objectEmit(edge))]);
    } else if (name === 'pageInfo' && isObjectType(object)) {
      const info: (readonly [string, Emit<Page>])[] = [];
      for (const [infoKey, infoNodes] of subfields(scope, object, fieldNodes)) {
        const infoName = infoNodes[0]!.name.value;
        info.push([
          infoKey,
          infoName === '__typename'
            ? typename(object)
            : infoName === 'hasNextPage'
              ? flag((p) => (window.backwards ? window.before !== undefined : p.more))
              : infoName === 'hasPreviousPage'
                ? flag((p) => (window.backwards ? p.more : window.after !== undefined))
                : cursorAt(infoName === 'startCursor' ? 0 : -1),
        ]);
      }
      members.push([key, objectEmit(info)]);
    } else return undefined;
  }

  const keys = cursorColumns(meta, window.terms, row, scope.ctx.viewer.accountId);
  const PAGE = quote(`${row}_page`);
  const total = counted ? await totalSql(scope, source, window, PAGE) : raw(`''`);
  const statement = sql`with ${await pageCte(scope, source, window, PAGE)} select "t"."__total", "r".* from (select ${total} as "__total") as "t" left join lateral (select ${quote(row)}."__n", ${join([...keys, ...columns], ', ')} from ${PAGE} as ${quote(row)}${join(joins, '')}) as "r" on true order by "r"."__n"`;
  const emit = objectEmit(members);
  const pageOf = (rows: readonly Row[]): Page => {
    const read = rows.filter((r) => r.__n !== null);
    const shown = read.slice(0, window.limit);
    if (window.backwards) shown.reverse();
    return { rows: shown, total: String(rows[0]?.__total ?? ''), more: read.length > window.limit };
  };
  return {
    statement,
    write: (rows) => emit.text(pageOf(rows)),
    read: (rows) => emit.value(pageOf(rows)),
    ...(listed ? { shown: (rows: readonly Row[]) => pageOf(rows).rows.length } : {}),
  };
}

/**
 * The list's `totalCount` as text. A first page (no cursor) that is not full holds every row, so
 * its own count is the total and the count over the whole list is not run: PostgreSQL runs the
 * subquery of a CASE branch only when the branch is taken. A legacy list, read whole, is such a
 * page.
 */
async function totalSql(
  scope: CompileScope,
  source: ListSource<object>,
  window: { readonly limit: number; readonly after?: unknown; readonly before?: unknown },
  page: string,
): Promise<Sql> {
  const count = await countSql(scope, source);
  if (window.after !== undefined || window.before !== undefined) return count;
  const limit = raw(String(window.limit));
  return sql`(select case when count(*) <= ${limit} then count(*)::text else ${count} end from ${raw(page)})`;
}

/**
 * A lookup's one object (`shift(id:)`) read as a row, as a root list's nodes are: undefined when
 * the statement finds no row, for the executor to answer (with its NOT_FOUND or refusal).
 */
export async function objectRows(
  scope: CompileScope,
  field: GraphQLField<unknown, unknown>,
  nodes: readonly FieldNode[],
  source: ListSource<object>,
): Promise<RowsPlan | undefined> {
  const window = listWindow(scope.ctx, source, pageRequest({ first: 1 }));
  const row = scope.alias();
  const { columns, joins, objectOf } = rowColumns(scope, row);
  const object = await objectOf(getNamedType(field.type) as GraphQLObjectType, nodes);
  if (!object) return undefined;
  const PAGE = quote(`${row}_page`);
  const statement = sql`with ${await pageCte(scope, source, window, PAGE)} select ${join(columns, ', ')} from ${PAGE} as ${quote(row)}${join(joins, '')} where ${quote(row)}."__n" = 1`;
  return {
    statement,
    write: (rows) => (rows[0] ? object.text(rows[0]) : undefined),
    read: (rows) => (rows[0] ? object.value(rows[0]) : undefined),
  };
}

/**
 * The columns a row of the statement carries (`c0`, `c1`, …), each member of an object as a
 * column named by its place, with the joins they read, and how an object is made from them.
 */
function rowColumns(scope: CompileScope, row: string) {
  const columns: Sql[] = [];
  const joins: Sql[] = [];
  const column = (member: FieldSql): Emit<Row> => {
    if ('constant' in member) return constant(member.constant);
    const name = `c${columns.length}`;
    if ('json' in member) {
      columns.push(sql`${member.json} as ${quote(name)}`);
      return { text: (r) => r[name] as string, value: (r) => JSON.parse(r[name] as string) };
    }
    columns.push(
      sql`${{ text: member.leaf.column(member.value.text), params: member.value.params }} as ${quote(name)}`,
    );
    return { text: (r) => member.leaf.write(r[name]!), value: (r) => member.leaf.read(r[name]!) };
  };
  const objectOf = async (
    type: GraphQLObjectType,
    fieldNodes: readonly FieldNode[],
  ): Promise<ObjectEmit<Row> | undefined> => {
    const object = await objectColumns(scope, type, fieldNodes, row);
    if (!object) return undefined;
    joins.push(object.joins);
    return objectEmit(object.members.map(([key, member]) => [key, column(member)]));
  };
  return { columns, joins, objectOf };
}

const constant = (json: string): Emit<unknown> => {
  const value: unknown = JSON.parse(json);
  return { text: () => json, value: () => value };
};

/** An object's emitter, with the emitters of its members by key. */
interface ObjectEmit<T> extends Emit<T> {
  readonly members: ReadonlyMap<string, Emit<T>>;
}

/** An object of members, each after its key: written as JSON.stringify writes one. */
function objectEmit<T>(members: readonly (readonly [string, Emit<T>])[]): ObjectEmit<T> {
  const keys = members.map(([key], i) => `${i === 0 ? '' : ','}${JSON.stringify(key)}:`);
  const names = members.map(([key]) => key);
  const emits = members.map(([, emit]) => emit);
  return {
    members: new Map(members),
    text: (from) => {
      let text = '{';
      for (let i = 0; i < emits.length; i++) text += keys[i]! + emits[i]!.text(from);
      return `${text}}`;
    },
    value: (from) => {
      const object: Record<string, unknown> = {};
      for (let i = 0; i < emits.length; i++) object[names[i]!] = emits[i]!.value(from);
      return object;
    },
  };
}

/**
 * A page's rows as the caller's `writer` writes them, reading each row's fields through the node's
 * emitters (a field's JSON text is the column's own); as text, or as `WrittenNodes` for the caller
 * to put in its answer as they are.
 */
function writtenList(writer: NodeWriter, node: ObjectEmit<Row>): Emit<Page> {
  let row: Row;
  const read: FieldReader = {
    value: (field) => node.members.get(field)!.value(row),
    json: (field) => node.members.get(field)!.text(row),
  };
  const text = (p: Page) =>
    writer.list(
      p.rows.map((r) => {
        row = r;
        return writer.node(read);
      }),
    );
  return { text, value: (p) => new WrittenNodes(text(p), p.rows.length) };
}

/** A page's rows, each as `item`. */
function listEmit(item: Emit<Row>): Emit<Page> {
  return {
    text: (p) => `[${p.rows.map(item.text).join(',')}]`,
    value: (p) => p.rows.map(item.value),
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
  accountId: number,
): Sql[] {
  return terms.map((t, i) => {
    const expr = pathSql(meta, t.path, alias, accountId);
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
