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
import { literal, raw, type Sql } from './sql-text';

/** An instant as the DateTimeISO scalar writes it: `toISOString()`, milliseconds and `Z`. */
export const isoText = (expr: string) =>
  `to_char((${expr}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The JSON text of a leaf value of GraphQL type `type` computed by `expr`, as the executor would
 * serialize it (`'null'` for NULL); undefined for a type with no SQL form here (the field then runs
 * on the executor).
 */
export function leafJson(type: GraphQLOutputType, expr: string): Sql | undefined {
  const json = nullableLeafJson(getNullableType(type), expr);
  return json === undefined ? undefined : raw(`coalesce(${json}, 'null')`);
}

function nullableLeafJson(type: GraphQLOutputType, expr: string): string | undefined {
  if (isListType(type)) {
    const item = type.ofType as GraphQLOutputType;
    const named = isNonNullType(item) ? item.ofType : item;
    // text[] and int[] columns: array_to_json writes them as JSON.stringify does.
    return [GraphQLString, GraphQLID, GraphQLInt, GraphQLBoolean].includes(named as never)
      ? `array_to_json(${expr})::text`
      : undefined;
  }
  if (type === GraphQLString || type === GraphQLID) return `to_json((${expr})::text)::text`;
  if (type === GraphQLInt || type === GraphQLBoolean || ('name' in type && type.name === 'SafeInt'))
    return `to_json(${expr})::text`;
  // numeric columns read as text in JavaScript and are written as numbers: 12.50 is 12.5.
  if (type === GraphQLFloat) return `to_json((${expr})::float8)::text`;
  if ('name' in type && type.name === 'DateTimeISO') return `'"' || ${isoText(expr)} || '"'`;
  if (isEnumType(type)) {
    const values = type.getValues();
    if (values.some((v) => typeof v.value !== 'string')) return undefined;
    const cases = values.map(
      (v) => `when ${literal(v.value as string)} then ${literal(JSON.stringify(v.name))}`,
    );
    return `case (${expr})::text ${cases.join(' ')} end`;
  }
  return undefined;
}
