import { z } from 'zod';
import type { NodeWriter } from '../../src/core/node-writer';
import { wireObject, type JsonMembers } from '../json/json-members';
import {
  boolean,
  centsFromAmount,
  decimal,
  integer,
  oneOf,
  tagList,
  tagText,
  text,
  timestamp,
  uuid,
  type FieldKind,
  type InputTable,
} from '../json/input-fields';
import type { ColumnTable, ColumnType } from '../query/columns';
import { LEGACY_FIELDS } from '../operations/legacy-fields.generated';
import { formatLegacyTime, legacyTime } from '../xml/legacy-dates';
import * as xml from '../xml/xml-writer';
import { asStringBoolean, dateTime, lower, uuidField, wireTime } from './wire-types';

/**
 * A type's fields on the legacy wires, as its declarations give them (`legacy` of @Declared on
 * the entity, written out by `npm run schema:emit` into operations/legacy-fields.generated.ts):
 * the JSON fields and their OpenAPI shape, the XML elements, what create and update read from
 * each wire, and the columns `where` and `order` may name. A resource adds by hand only what no
 * single field declares (its members with the owner first, nested objects, running totals).
 */
export type LegacyTypeName = keyof typeof LEGACY_FIELDS;

type Row = (typeof LEGACY_FIELDS)[LegacyTypeName][number];

/**
 * A wire object: the fields a resource writes itself, typed by its schema, beside the declared
 * ones (whose names and values the generated table, not the compiler, knows).
 */
export type WireOf<Schema extends z.ZodType> = z.infer<Schema> & Record<string, unknown>;

/** A GraphQL answer holding the type's fragment `<Type>Legacy` (its declared fields). */
type Answer = Readonly<Record<string, unknown>>;

/** Elements a resource writes itself, after the declared element that names them. */
export type XmlInserts<Node> = Readonly<Record<string, (node: Node) => readonly xml.XmlNode[]>>;

/** The JSON names a type's declarations give its fields. */
export type JsonNameOf<T extends LegacyTypeName> = Extract<
  (typeof LEGACY_FIELDS)[T][number],
  { json: string }
>['json'];

export interface LegacyFields<Order extends string, JsonName extends string = string> {
  /** The JSON fields the declarations give, in declaration order. */
  json(node: Answer): Record<string, unknown>;
  /** The same as members of a node's wire object, for a resource to write beside its own. */
  readonly members: JsonMembers;
  /**
   * One declared field as a cell of a download (CSV, XLSX): its JSON value, a list as
   * comma-separated text and a boolean as `true` or `false`.
   */
  cell(name: JsonName, node: Answer): string | number | null;
  /** Their OpenAPI shapes. */
  readonly jsonShape: Readonly<Record<string, z.ZodType>>;
  /** The XML elements, in declaration order, with a resource's own after the ones they name. */
  xml<Node extends Answer>(node: Node, inserts?: XmlInserts<Node>): xml.XmlNode[];
  /**
   * The same elements of a list's items written as text from a reader of the node's fields (a
   * compiled read's rows), each item `<element>` with its elements and the resource's own
   * (`inserts`, given a node of the fields `insertFields` names).
   */
  xmlWriter<Node extends Answer>(
    element: string,
    inserts?: XmlInserts<Node>,
    insertFields?: readonly (keyof Node & string)[],
  ): NodeWriter;
  /** What a JSON create and update read (the client-chosen `uuid` on create only). */
  readonly createFields: InputTable;
  readonly updateFields: InputTable;
  /** What an XML create and update read. */
  readonly xmlFields: InputTable;
  /** The JSON fields `where` and `order` may name. */
  readonly columns: ColumnTable<Order>;
}

/** The order values a type's legacy columns carry: a resource's table is typed by its order enum. */
type OrdersOf<T extends LegacyTypeName> = Extract<
  (typeof LEGACY_FIELDS)[T][number],
  { order: string }
>['order'];

export function legacyFields<T extends LegacyTypeName>(
  type: T,
): LegacyFields<OrdersOf<T>, JsonNameOf<T>> {
  return build<OrdersOf<T>, JsonNameOf<T>>(LEGACY_FIELDS[type]);
}

function build<Order extends string, JsonName extends string>(
  rows: readonly Row[],
): LegacyFields<Order, JsonName> {
  const json = rows.filter((r): r is Row & { json: string } => 'json' in r);
  // What a node renders, chosen once per type rather than on every node of every list.
  const rendered = json.filter((r) => !('unread' in r));
  const xmlElements = rows
    .filter((r): r is Row & { xml: string } => 'xml' in r && !('unread' in r))
    .map((row) => ({ row, ...xmlElement(row), whenSet: 'whenSet' in row }));
  // A wall time is written in its shift's zone.
  const zoned = xmlElements.some(({ row }) => row.type === 'DateTimeISO');
  const byJsonName = new Map(json.map((row) => [row.json, { row, write: jsonWrite(row) }]));
  const writable = json.filter((r) => 'input' in r);
  const createFields = inputTable(writable, 'json', jsonKind);
  const members: JsonMembers = rendered.map((row) => {
    const write = jsonWrite(row);
    return {
      key: row.json,
      path: [row.field],
      ...(write ? { write } : {}),
      ...('whenSet' in row ? { omitNull: true } : {}),
    };
  });
  const always = rendered.filter((row) => 'always' in row);
  return {
    json: (node) => {
      for (const row of always) valueOf(row, node);
      return wireObject(members, node);
    },
    members,
    cell: (name, node) => {
      const { row, write } = byJsonName.get(name)!;
      const read = valueOf(row, node);
      const value = read === null || !write ? read : write(read);
      if (Array.isArray(value)) return value.join(',');
      return typeof value === 'boolean' ? String(value) : (value as string | number | null);
    },
    jsonShape: Object.fromEntries(json.map((r) => [r.json, wireShape(r)])),
    xml: (node, inserts = {}) => {
      const elements: xml.XmlNode[] = [];
      for (const { row, kind, convert, whenSet } of xmlElements) {
        const value = valueOf(row, node);
        if (value !== null || !whenSet)
          elements.push(xml.leaf(row.xml, kind, convert(value, node.timeZone)));
        const own = inserts[row.xml];
        if (own) elements.push(...own(node));
      }
      return elements;
    },
    xmlWriter: (element, inserts = {}, insertFields = []) => {
      const [open, close] = [`  <${element}>\n`, `\n  </${element}>`];
      return {
        fields: [
          ...new Set([
            ...xmlElements.map(({ row }) => row.field),
            ...(zoned ? ['timeZone'] : []),
            ...insertFields,
          ]),
        ],
        node: (read) => {
          const lines: string[] = [];
          for (const { row, kind, convert, whenSet } of xmlElements) {
            const value = read.value(row.field) ?? null;
            if (value !== null || !whenSet)
              lines.push(
                xml.leafText(
                  '    ',
                  row.xml,
                  kind,
                  convert(value, zoned ? read.value('timeZone') : undefined),
                ),
              );
            const own = inserts[row.xml];
            if (own) {
              const node = Object.fromEntries(insertFields.map((f) => [f, read.value(f)]));
              for (const inserted of own(node as never)) lines.push(leafLine(inserted));
            }
          }
          return lines.length ? open + lines.join('\n') + close : `  <${element}/>`;
        },
        list: (nodes) => nodes.join('\n'),
      };
    },
    createFields,
    updateFields: inputTable(
      writable.filter((r) => r.field !== 'id'),
      'json',
      jsonKind,
    ),
    xmlFields: inputTable(
      rows.filter(
        (r): r is Row & { xml: string } => 'xml' in r && 'input' in r && !('xmlReadOnly' in r),
      ),
      'xml',
      xmlKind,
    ),
    columns: Object.fromEntries(
      json.flatMap((r) =>
        'filter' in r
          ? [
              [
                r.json,
                {
                  filter: r.field,
                  type: columnType(r),
                  ...('order' in r ? { order: r.order as Order } : {}),
                },
              ],
            ]
          : [],
      ),
    ),
  };
}

/** The field's value; null where GraphQL withheld it from a field the legacy wire always has. */
function valueOf(row: Row, node: Answer): unknown {
  const value = node[row.field] ?? null;
  if (value === null && 'always' in row)
    // The legacy routes answer only records whose reader may read them whole (the staff policy),
    // so null here is a broken invariant, never something to render.
    throw new Error(`${row.field} was withheld from a record a legacy route answers`);
  return value;
}

/** How a field's value (never null) is written on the JSON wire; none: as it is. */
function jsonWrite(row: Row): ((value: unknown) => unknown) | undefined {
  if ('as' in row) {
    if (row.as === 'string-boolean') return (value) => asStringBoolean(value as boolean);
    if (row.as === 'comma-text') return (value) => (value as string[]).join(',');
    if (row.as === 'amount') return (value) => (value as number) / 100;
    return undefined;
  }
  if (row.type === 'DateTimeISO') return (value) => wireTime(value as string);
  if ('values' in row) return (value) => lower(value as string);
  return undefined;
}

function wireShape(row: Row & { json: string }): z.ZodType {
  let shape = baseShape(row);
  if ('nullable' in row && !('always' in row) && !('whenSet' in row)) shape = shape.nullable();
  if ('whenSet' in row) shape = shape.optional();
  const notes = [
    'description' in row ? row.description : undefined,
    'whenSet' in row ? 'Only when set.' : undefined,
  ].filter((note) => note !== undefined);
  return notes.length ? shape.meta({ description: notes.join(' ') }) : shape;
}

function baseShape(row: Row): z.ZodType {
  if ('as' in row) {
    // `active` is the string "true" or "false" on the legacy wire, never a boolean.
    if (row.as === 'string-boolean') return z.enum(['true', 'false']);
    if (row.as === 'amount') return z.number();
    return z.string();
  }
  const one = scalarShape(row);
  return 'list' in row ? z.array(one) : one;
}

function scalarShape(row: Row): z.ZodType {
  if ('values' in row) return z.enum(row.values.map((v) => v.toLowerCase()) as [string]);
  switch (row.type) {
    case 'ID':
      return uuidField;
    case 'Int':
      return z.number().int();
    case 'Float':
      return z.number();
    case 'Boolean':
      return z.boolean();
    case 'DateTimeISO':
      return dateTime;
    default:
      return z.string();
  }
}

/**
 * A declared field's XML element, chosen once per field rather than on every node: its kind
 * (typed or text) and its value as the element holds it, given the node's time zone for a wall
 * time.
 */
function xmlElement(row: Row & { xml: string }): {
  kind: xml.XmlLeafKind;
  convert: (value: unknown, timeZone: unknown) => string | number | boolean | null;
} {
  const as = <T>(convert: (value: T) => string) => ({
    kind: 'text' as const,
    convert: (value: unknown) => (value === null ? null : convert(value as T)),
  });
  if ('as' in row && row.as === 'string-boolean') return as<boolean>(String);
  if ('as' in row && row.as === 'tag-text')
    return { kind: 'text', convert: (value) => (value as string | null) ?? '' };
  if ('list' in row) return as<string[]>((value) => value.join(','));
  if ('values' in row) return as<string>(lower);
  switch (row.type) {
    case 'Int':
      return { kind: 'integer', convert: (value) => value as number | null };
    case 'Float':
      return { kind: 'float', convert: (value) => value as number | null };
    case 'Boolean':
      return { kind: 'boolean', convert: (value) => value as boolean | null };
    case 'DateTimeISO':
      // A shift's wall time in its own zone, as the 2009 clients read it.
      return {
        kind: 'text',
        convert: (value, timeZone) =>
          value === null ? null : formatLegacyTime(value as string, timeZone as string),
      };
    default:
      return { kind: 'text', convert: (value) => value as string | null };
  }
}

/** A resource's own element of a list item, as its line. */
function leafLine(node: xml.XmlNode): string {
  if (node.kind === 'array' || node.kind === 'element')
    throw new Error(`<${node.name}> is not an element that holds a value`);
  return xml.leafText(
    '    ',
    node.name,
    node.kind,
    node.value,
    node.kind === 'text' ? node.attributes : undefined,
  );
}

function inputTable<R extends Row>(
  rows: readonly R[],
  wire: 'json' | 'xml',
  kind: (row: R) => FieldKind,
): InputTable {
  return Object.fromEntries(
    rows.map((r) => [
      (r as Record<string, unknown>)[wire] as string,
      { to: r.field, kind: kind(r) },
    ]),
  );
}

function jsonKind(row: Row): FieldKind {
  if ('as' in row) {
    if (row.as === 'amount') return centsFromAmount;
    if (row.as === 'tag-text') return tagText;
    if (row.as === 'comma-text') return tagList;
  }
  if ('list' in row) return tagList;
  if ('values' in row) {
    const values: readonly string[] = 'input' in row && row.input !== true ? row.input : row.values;
    return oneOf(Object.fromEntries(values.map((v) => [v.toLowerCase(), v])));
  }
  switch (row.type) {
    case 'ID':
      return uuid;
    case 'Int':
      return integer;
    case 'Float':
      return decimal;
    case 'Boolean':
      return boolean;
    case 'DateTimeISO':
      return timestamp;
    default:
      return text;
  }
}

/** XML reads what JSON does, but times in the legacy XML form (wall time unless GMT). */
function xmlKind(row: Row): FieldKind {
  return row.type === 'DateTimeISO' ? legacyTime : jsonKind(row);
}

function columnType(row: Row): ColumnType {
  if ('as' in row && row.as === 'string-boolean') return 'string-boolean';
  if ('values' in row)
    return { enum: Object.fromEntries(row.values.map((v) => [v.toLowerCase(), v])) };
  switch (row.type) {
    case 'ID':
      return 'uuid';
    case 'Int':
      return 'integer';
    case 'Float':
      return 'float';
    case 'Boolean':
      return 'boolean';
    case 'DateTimeISO':
      return 'timestamp';
    default:
      return 'string';
  }
}
