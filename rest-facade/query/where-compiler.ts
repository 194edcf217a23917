import { ColumnSpec, ColumnTable, ColumnType, lookupColumn } from './columns';
import { INT32_MAX, INT32_MIN } from '../int32';
import {
  Comparison,
  ComparisonOp,
  WhereNode,
  WhereValue,
  parseWhere,
  queryError,
  quoteForMessage,
} from './where-parser';

/**
 * Compiles the `where` AST into a GraphQL filter input object. The result is only ever passed as
 * GraphQL *variables*, never spliced into query text, and it names nothing but the `filter` fields
 * of the column table and the operators below.
 */

export type FilterOperator = 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'like' | 'isNull';

/** A filter input: `{ and: [...] }`, `{ or: [...] }` or `{ someField: { op: value } }`. */
export type WhereFilter = Record<string, unknown>;

const OPERATOR: Readonly<Record<ComparisonOp, FilterOperator>> = {
  '=': 'eq',
  '!=': 'ne',
  '~=': 'like',
  '<': 'lt',
  '<=': 'lte',
  '>': 'gt',
  '>=': 'gte',
};

type TypeName = Exclude<ColumnType, object> | 'enum';

/**
 * What each GraphQL filter type offers that the language can reach (`in` exists on some of them but
 * has no syntax here).
 */
const SUPPORTED: Readonly<Record<TypeName, ReadonlySet<FilterOperator>>> = {
  string: new Set(['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'like', 'isNull']),
  integer: new Set(['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'isNull']),
  float: new Set(['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'isNull']),
  boolean: new Set(['eq', 'ne', 'isNull']),
  'string-boolean': new Set(['eq', 'ne', 'isNull']),
  timestamp: new Set(['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'isNull']),
  uuid: new Set(['eq', 'ne', 'isNull']),
  enum: new Set(['eq', 'ne']),
};

/** Every operator key a compiled filter can contain. */
export const FILTER_OPERATORS: readonly FilterOperator[] = [
  'eq',
  'ne',
  'lt',
  'lte',
  'gt',
  'gte',
  'like',
  'isNull',
];

const INTEGER_TEXT = /^-?[0-9]+$/;
const DECIMAL_TEXT = /^-?[0-9]+(?:\.[0-9]+)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RFC3339 =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))$/;

/**
 * Parses and compiles a `where` text against a resource's columns; undefined (no filter) for an
 * absent, empty or whitespace-only text. Throws BadRequestError for anything invalid.
 */
export function compileWhere(
  text: string | undefined,
  columns: ColumnTable,
): WhereFilter | undefined {
  const ast = parseWhere(text);
  return ast === undefined ? undefined : compileWhereAst(ast, columns);
}

/** Compiles a parsed (or hand-built) AST; positions in errors come from the AST. */
export function compileWhereAst(node: WhereNode, columns: ColumnTable): WhereFilter {
  if (node.kind === 'comparison') return compileComparison(node, columns);
  return { [node.kind]: node.operands.map((operand) => compileWhereAst(operand, columns)) };
}

function typeName(type: ColumnType): TypeName {
  return typeof type === 'string' ? type : 'enum';
}

function compileComparison(comparison: Comparison, columns: ColumnTable): WhereFilter {
  const { column, op, value, positions } = comparison;
  const spec = lookupColumn(columns, column);
  if (spec === undefined) {
    throw queryError('where', `unknown column ${quoteForMessage(column)}`, positions.column);
  }
  const supported = SUPPORTED[typeName(spec.type)];
  if (value.kind === 'null') {
    if (op !== '=' && op !== '!=') {
      throw queryError(
        'where',
        `operator "${op}" cannot compare with null (use = null or != null)`,
        positions.op,
      );
    }
    if (!supported.has('isNull')) {
      throw queryError('where', `column "${column}" cannot be compared with null`, positions.value);
    }
    return { [spec.filter]: { isNull: op === '=' } };
  }
  const operator = OPERATOR[op];
  if (!supported.has(operator)) {
    throw queryError(
      'where',
      `operator "${op}" is not supported on column "${column}"`,
      positions.op,
    );
  }
  return { [spec.filter]: { [operator]: coerceValue(column, spec, value, positions.value) } };
}

/** Converts a literal to the column's GraphQL type, or refuses it at the literal's position. */
function coerceValue(
  column: string,
  spec: ColumnSpec,
  value: Exclude<WhereValue, { kind: 'null' }>,
  position: number,
): string | number | boolean {
  const refuse = (expected: string) =>
    queryError('where', `expected ${expected} for column "${column}"`, position);
  const type = spec.type;
  // Quoted and bare text are interchangeable wherever a string is expected.
  const text = value.kind === 'string' || value.kind === 'bareword' ? value.value : undefined;

  if (typeof type === 'object') {
    const wanted = text?.toLowerCase();
    // Own keys only, so `constructor` and friends are not enum values.
    for (const [wire, graphql] of Object.entries(type.enum)) {
      if (wire.toLowerCase() === wanted) return graphql;
    }
    throw refuse(`one of ${Object.keys(type.enum).join(', ')}`);
  }

  switch (type) {
    case 'string':
      if (text === undefined) throw refuse('a string (quote it)');
      // PostgreSQL text cannot hold NUL, so no stored value can match one.
      if (text.includes('\u0000')) throw refuse('text without NUL characters');
      return text;

    case 'integer': {
      const digits = numericText(value);
      if (digits === undefined || !INTEGER_TEXT.test(digits)) throw refuse('an integer');
      const n = Number(digits);
      if (n < INT32_MIN || n > INT32_MAX) throw refuse('an integer within 32 bits');
      return n === 0 ? 0 : n; // no -0
    }

    case 'float': {
      const digits = numericText(value);
      if (digits === undefined || !DECIMAL_TEXT.test(digits)) throw refuse('a number');
      const n = Number(digits);
      if (!Number.isFinite(n)) throw refuse('a number within range');
      return n === 0 ? 0 : n;
    }

    case 'boolean':
    case 'string-boolean': {
      // Both accept either spelling: legacy clients send active="true" for a string-boolean field,
      // and newer ones send the bare keyword.
      if (value.kind === 'boolean') return value.value;
      const lower = value.kind === 'string' ? value.value.toLowerCase() : undefined;
      if (lower === 'true' || lower === 'false') return lower === 'true';
      throw refuse('true or false');
    }

    case 'timestamp': {
      // Bare text is refused: an unquoted date would not even lex as one token.
      const iso = value.kind === 'string' ? parseRfc3339(value.value) : undefined;
      if (iso === undefined) {
        throw refuse(
          'a quoted RFC 3339 date-time with Z or an offset, e.g. "2013-08-14T00:00:00Z"',
        );
      }
      return iso;
    }

    case 'uuid':
      if (text === undefined || !UUID.test(text)) throw refuse('a UUID');
      return text.toLowerCase();
  }
}

/** A number literal's text, or a quoted string's (legacy clients quote numbers too). */
function numericText(value: WhereValue): string | undefined {
  if (value.kind === 'number') return value.text;
  return value.kind === 'string' ? value.value : undefined;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * An RFC 3339 date-time (offset required) as ISO UTC in `toISOString()` form, or undefined.
 * Fractions beyond milliseconds are truncated, since that is all a JS Date holds; leap seconds
 * (:60) are refused for the same reason.
 */
export function parseRfc3339(text: string): string | undefined {
  const match = RFC3339.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const fraction = match[7] ?? '';
  const [sign, offsetHour, offsetMinute] = [
    match[8],
    Number(match[9] ?? 0),
    Number(match[10] ?? 0),
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHour > 23 || offsetMinute > 59) {
    return undefined;
  }
  const millis = Number(fraction.slice(0, 3).padEnd(3, '0'));
  // setUTCFullYear, not Date.UTC, which would read years 0-99 as 1900-1999.
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, second, millis);
  const offset = (sign === '-' ? -1 : 1) * (offsetHour * 60 + offsetMinute) * 60_000;
  const utc = new Date(local.getTime() - offset);
  // Keep to four-digit years, which is what toISOString and the DateTime scalar both expect.
  const utcYear = utc.getUTCFullYear();
  // Year 0 does not exist in the calendar PostgreSQL uses for timestamps.
  if (utcYear < 1 || utcYear > 9999) return undefined;
  return utc.toISOString();
}
