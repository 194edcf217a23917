import {
  getNullableType,
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  isEnumType,
  isListType,
  isNonNullType,
  type GraphQLOutputType,
} from 'graphql';
import { literal } from './sql-text';

/** An instant as the DateTimeISO scalar writes it: `toISOString()`, milliseconds and `Z`. */
export const isoText = (expr: string) =>
  `to_char((${expr}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A value PostgreSQL sends for a leaf column: text, a number, a boolean or NULL. */
export type LeafValue = string | number | boolean | null;

/**
 * How a leaf value of a GraphQL type is written as the executor writes it: by PostgreSQL (`json`,
 * its JSON text, `'null'` for NULL), or by JavaScript from a column PostgreSQL sends (`column`,
 * then `write`). Both give the same text.
 */
export interface LeafForm {
  json(expr: string): string;
  column(expr: string): string;
  write(value: LeafValue): string;
  /** The value as the executor's answer holds it (what JSON.parse of `write` gives). */
  read(value: LeafValue): unknown;
}

const orNull =
  <T>(write: (value: string | number | boolean) => T) =>
  (value: LeafValue): T | 'null' =>
    value === null ? 'null' : write(value);

/** Reads a value as it is, or as a number where PostgreSQL sends an int8 as text. */
const asIs = (value: LeafValue) => value;
const asNumber = (value: LeafValue) => (typeof value === 'string' ? Number(value) : value);

const forms = new WeakMap<GraphQLOutputType, LeafForm | null>();

/**
 * The leaf form of GraphQL type `type`; undefined for a type with no SQL form here. Made once per
 * type of the schema: every field of every compiled request asks.
 */
export function leafForm(type: GraphQLOutputType): LeafForm | undefined {
  let known = forms.get(type);
  if (known === undefined) {
    const form = nullableLeafForm(getNullableType(type));
    known = form ? { ...form, json: (expr) => `coalesce(${form.json(expr)}, 'null')` } : null;
    forms.set(type, known);
  }
  return known ?? undefined;
}

function nullableLeafForm(type: GraphQLOutputType): LeafForm | undefined {
  const text = (column: (expr: string) => string, json: (expr: string) => string) => ({
    column,
    json,
    write: orNull((v) => JSON.stringify(v)),
    read: asIs,
  });
  if (isListType(type)) {
    const item = type.ofType as GraphQLOutputType;
    const named = isNonNullType(item) ? item.ofType : item;
    // text[] and int[] columns: array_to_json writes them as JSON.stringify does.
    if (![GraphQLString, GraphQLID, GraphQLInt, GraphQLBoolean].includes(named as never))
      return undefined;
    const json = (expr: string) => `array_to_json(${expr})::text`;
    return {
      json,
      column: json,
      write: orNull(String),
      read: (value) => (value === null ? null : (JSON.parse(String(value)) as unknown)),
    };
  }
  if (type === GraphQLString || type === GraphQLID)
    return text(
      (expr) => `(${expr})::text`,
      (expr) => `to_json((${expr})::text)::text`,
    );
  // int8 (a SafeInt total) arrives as text of digits, int4 as a number, booleans as booleans.
  if (type === GraphQLInt || type === GraphQLBoolean || ('name' in type && type.name === 'SafeInt'))
    return {
      column: (expr) => expr,
      json: (expr) => `to_json(${expr})::text`,
      write: orNull(String),
      read: asNumber,
    };
  // numeric columns read as text in JavaScript and are written as numbers: 12.50 is 12.5.
  if (type === GraphQLFloat)
    return text(
      (expr) => `(${expr})::float8`,
      (expr) => `to_json((${expr})::float8)::text`,
    );
  if ('name' in type && type.name === 'DateTimeISO')
    return {
      column: isoText,
      json: (expr) => `'"' || ${isoText(expr)} || '"'`,
      write: orNull((v) => `"${String(v)}"`),
      read: asIs,
    };
  if (isEnumType(type)) {
    const values = type.getValues();
    if (values.some((v) => typeof v.value !== 'string')) return undefined;
    const names = new Map(values.map((v) => [v.value as string, v.name]));
    const cases = values.map(
      (v) => `when ${literal(v.value as string)} then ${literal(JSON.stringify(v.name))}`,
    );
    return {
      column: (expr) => `(${expr})::text`,
      json: (expr) => `case (${expr})::text ${cases.join(' ')} end`,
      write: (value) => {
        const name = value === null ? undefined : names.get(String(value));
        return name === undefined ? 'null' : JSON.stringify(name);
      },
      read: (value) => (value === null ? null : (names.get(String(value)) ?? null)),
    };
  }
  return undefined;
}
