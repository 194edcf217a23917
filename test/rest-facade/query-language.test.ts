import fc from 'fast-check';
import { BadRequestError } from '../../src/core/errors';
import { ColumnTable } from '../../rest-facade/query/columns';
import { MAX_ORDER_TERMS, compileOrderText } from '../../rest-facade/query/order-parser';
import {
  FILTER_OPERATORS,
  compileWhere,
  compileWhereAst,
  parseRfc3339,
} from '../../rest-facade/query/where-compiler';
import {
  Comparison,
  ComparisonOp,
  MAX_COMPARISONS,
  MAX_EXPRESSION_LENGTH,
  MAX_NESTING_DEPTH,
  WhereNode,
  WhereValue,
  parseWhere,
  printWhere,
} from '../../rest-facade/query/where-parser';

const ROLES = { manager: 'MANAGER', staff: 'STAFF', owner: 'OWNER' } as const;

const columns: ColumnTable = {
  last_name: { filter: 'lastName', type: 'string', order: 'LAST_NAME' },
  first_name: { filter: 'firstName', type: 'string', order: 'FIRST_NAME' },
  hours: { filter: 'hours', type: 'integer', order: 'HOURS' },
  rate: { filter: 'rate', type: 'float' },
  admin: { filter: 'isAdmin', type: 'boolean' },
  active: { filter: 'active', type: 'string-boolean', order: 'ACTIVE' },
  start: { filter: 'start', type: 'timestamp', order: 'START' },
  id: { filter: 'id', type: 'uuid' },
  type: { filter: 'role', type: { enum: ROLES } },
};

const UUID = '123e4567-e89b-42d3-a456-426614174000';

/** Runs `fn` and returns the BadRequestError it throws, failing the test on anything else. */
function badRequest(fn: () => unknown): BadRequestError {
  try {
    fn();
  } catch (error) {
    if (error instanceof BadRequestError) return error;
    throw error;
  }
  throw new Error('expected a BadRequestError, but nothing was thrown');
}

function whereError(text: string, table: ColumnTable = columns) {
  const error = badRequest(() => compileWhere(text, table));
  return { message: error.message, ...error.details };
}

function orderError(text: string, table: ColumnTable = columns) {
  const error = badRequest(() => compileOrderText(text, table));
  return { message: error.message, ...error.details };
}

/** The AST without source positions, for comparing a parse with a generated AST. */
function strip(node: WhereNode): unknown {
  if (node.kind === 'comparison') {
    return { kind: node.kind, column: node.column, op: node.op, value: node.value };
  }
  return { kind: node.kind, operands: node.operands.map(strip) };
}

describe('where: comparisons', () => {
  test.each([
    ['=', 'eq'],
    ['!=', 'ne'],
    ['~=', 'like'],
    ['<', 'lt'],
    ['<=', 'lte'],
    ['>', 'gt'],
    ['>=', 'gte'],
  ])('string column with %s → %s', (op, name) => {
    expect(compileWhere(`last_name ${op} "sm%"`, columns)).toEqual({ lastName: { [name]: 'sm%' } });
  });

  test('a LIKE pattern as given: last_name ~= "sm%"', () => {
    expect(compileWhere('last_name ~= "sm%"', columns)).toEqual({ lastName: { like: 'sm%' } });
  });

  test('barewords are strings, and whitespace is optional', () => {
    expect(compileWhere('last_name=smith', columns)).toEqual({ lastName: { eq: 'smith' } });
    expect(compileWhere('last_name=o:neil-x.y', columns)).toEqual({
      lastName: { eq: 'o:neil-x.y' },
    });
    expect(compileWhere(' \tlast_name\n!=\r"a" ', columns)).toEqual({ lastName: { ne: 'a' } });
  });

  test('strings support \\" and \\\\ escapes, and keep everything else verbatim', () => {
    expect(compileWhere('last_name = "a\\"b\\\\c"', columns)).toEqual({
      lastName: { eq: 'a"b\\c' },
    });
    expect(compileWhere('last_name = "&& || ( ) 日本 \n"', columns)).toEqual({
      lastName: { eq: '&& || ( ) 日本 \n' },
    });
    expect(compileWhere('last_name = ""', columns)).toEqual({ lastName: { eq: '' } });
  });

  test('= null and != null are isNull', () => {
    expect(compileWhere('last_name = null', columns)).toEqual({ lastName: { isNull: true } });
    expect(compileWhere('start != NULL', columns)).toEqual({ start: { isNull: false } });
    expect(compileWhere('hours=Null', columns)).toEqual({ hours: { isNull: true } });
  });

  test('integers: literals and quoted numerals, within int32', () => {
    expect(compileWhere('hours >= 40', columns)).toEqual({ hours: { gte: 40 } });
    expect(compileWhere('hours < -2147483648', columns)).toEqual({ hours: { lt: -2147483648 } });
    expect(compileWhere('hours = "100"', columns)).toEqual({ hours: { eq: 100 } });
    expect(compileWhere('hours = 2147483647', columns)).toEqual({ hours: { eq: 2147483647 } });
    expect(compileWhere('hours = -0', columns)).toEqual({ hours: { eq: 0 } });
    expect(Object.is((compileWhere('hours = -0', columns) as any).hours.eq, 0)).toBe(true);
  });

  test('floats', () => {
    expect(compileWhere('rate > 12.5', columns)).toEqual({ rate: { gt: 12.5 } });
    expect(compileWhere('rate <= -3', columns)).toEqual({ rate: { lte: -3 } });
    expect(compileWhere('rate = "0.25"', columns)).toEqual({ rate: { eq: 0.25 } });
    expect(compileWhere('rate != null', columns)).toEqual({ rate: { isNull: false } });
  });

  test('booleans: keywords (any case) and the strings "true"/"false"', () => {
    expect(compileWhere('admin = true', columns)).toEqual({ isAdmin: { eq: true } });
    expect(compileWhere('admin != FALSE', columns)).toEqual({ isAdmin: { ne: false } });
    expect(compileWhere('admin = "false"', columns)).toEqual({ isAdmin: { eq: false } });
    expect(compileWhere('admin = null', columns)).toEqual({ isAdmin: { isNull: true } });
  });

  test('the legacy client form active="true" on a string-boolean column', () => {
    expect(compileWhere('active="true"', columns)).toEqual({ active: { eq: true } });
    expect(compileWhere('active = "false"', columns)).toEqual({ active: { eq: false } });
    expect(compileWhere('active = True', columns)).toEqual({ active: { eq: true } });
    expect(compileWhere('active != null', columns)).toEqual({ active: { isNull: false } });
  });

  test('timestamps: start > "2013-08-14T00:00:00Z" and friends, normalised to ISO UTC', () => {
    expect(compileWhere('start > "2013-08-14T00:00:00Z"', columns)).toEqual({
      start: { gt: '2013-08-14T00:00:00.000Z' },
    });
    expect(compileWhere('start>"2013-08-14T00:00:00Z"', columns)).toEqual({
      start: { gt: '2013-08-14T00:00:00.000Z' },
    });
    expect(compileWhere('start <= "2013-08-14T02:30:00.5+02:30"', columns)).toEqual({
      start: { lte: '2013-08-14T00:00:00.500Z' },
    });
    expect(compileWhere('start = "2013-08-13t20:00:00.123456-04:00"', columns)).toEqual({
      start: { eq: '2013-08-14T00:00:00.123Z' },
    });
    expect(compileWhere('start != "2024-02-29T23:59:59z"', columns)).toEqual({
      start: { ne: '2024-02-29T23:59:59.000Z' },
    });
    expect(compileWhere('start >= "0050-01-01T00:00:00Z"', columns)).toEqual({
      start: { gte: '0050-01-01T00:00:00.000Z' },
    });
  });

  test.each([
    '2013-08-14',
    '2013-08-14T00:00:00',
    '2013-13-01T00:00:00Z',
    '2013-02-29T00:00:00Z',
    '2013-08-14T24:00:00Z',
    '2013-08-14T00:60:00Z',
    '2013-08-14T00:00:60Z',
    '2013-08-14T00:00:00+24:00',
    '2013-08-14T00:00:00.Z',
    'yesterday',
    '0000-01-01T00:00:00+01:00',
  ])('timestamp %p is refused at the value position', (stamp) => {
    expect(parseRfc3339(stamp)).toBeUndefined();
    expect(whereError(`start = "${stamp}"`)).toMatchObject({ parameter: 'where', position: 8 });
  });

  test('uuids: quoted or bare, any case, lower-cased', () => {
    const upper = UUID.toUpperCase();
    expect(compileWhere(`id = "${upper}"`, columns)).toEqual({ id: { eq: UUID } });
    expect(compileWhere(`id != ${upper}`, columns)).toEqual({ id: { ne: UUID } });
    // A bare UUID starting with a letter is a bareword; one starting with a digit lexes as one too.
    expect(compileWhere('id = ABCDEF00-0000-4000-8000-000000000000', columns)).toEqual({
      id: { eq: 'abcdef00-0000-4000-8000-000000000000' },
    });
    expect(compileWhere(`id=${UUID}&&hours=1`, columns)).toEqual({
      and: [{ id: { eq: UUID } }, { hours: { eq: 1 } }],
    });
    expect(compileWhere('id = null', columns)).toEqual({ id: { isNull: true } });
  });

  test('enums: string or bareword, case-insensitive, mapped to the GraphQL value', () => {
    expect(compileWhere('type = manager', columns)).toEqual({ role: { eq: 'MANAGER' } });
    expect(compileWhere('type != "Staff"', columns)).toEqual({ role: { ne: 'STAFF' } });
    expect(compileWhere('type = OWNER', columns)).toEqual({ role: { eq: 'OWNER' } });
  });
});

describe('where: precedence, grouping and empty input', () => {
  const A = { lastName: { eq: 'a' } };
  const B = { firstName: { eq: 'b' } };
  const C = { hours: { eq: 3 } };
  const D = { rate: { eq: 4 } };

  test('a single comparison is not wrapped', () => {
    expect(compileWhere('last_name = a', columns)).toEqual(A);
  });

  test('chains flatten', () => {
    expect(compileWhere('last_name=a && first_name=b && hours=3', columns)).toEqual({
      and: [A, B, C],
    });
    expect(compileWhere('last_name=a || first_name=b || hours=3', columns)).toEqual({
      or: [A, B, C],
    });
  });

  test('&& binds tighter than ||', () => {
    expect(compileWhere('last_name=a || first_name=b && hours=3', columns)).toEqual({
      or: [A, { and: [B, C] }],
    });
    expect(compileWhere('last_name=a && first_name=b || hours=3 && rate=4', columns)).toEqual({
      or: [{ and: [A, B] }, { and: [C, D] }],
    });
  });

  test('parentheses group without wrapping', () => {
    expect(compileWhere('(last_name=a || first_name=b) && hours=3', columns)).toEqual({
      and: [{ or: [A, B] }, C],
    });
    expect(compileWhere('((last_name = a))', columns)).toEqual(A);
    expect(compileWhere('(last_name=a && first_name=b) && (hours=3 && rate=4)', columns)).toEqual({
      and: [A, B, C, D],
    });
    expect(compileWhere('last_name=a || (first_name=b || hours=3)', columns)).toEqual({
      or: [A, B, C],
    });
  });

  test('empty, whitespace-only and absent texts are no filter', () => {
    expect(compileWhere(undefined, columns)).toBeUndefined();
    expect(compileWhere('', columns)).toBeUndefined();
    expect(compileWhere(' \t\r\n ', columns)).toBeUndefined();
  });

  test('printWhere prints canonical text', () => {
    const ast = parseWhere('(last_name="x\\"y"||first_name=b)&&hours=-3||type=Manager')!;
    expect(printWhere(ast)).toBe(
      '(last_name = "x\\"y" || first_name = b) && hours = -3 || type = Manager',
    );
  });

  test('the parser records positions of column, operator and value', () => {
    const ast = parseWhere('hours=1 && last_name  ~=  "x"') as any;
    expect(ast.operands[1].positions).toEqual({ column: 11, op: 22, value: 26 });
  });
});

describe('where: errors name the position', () => {
  test.each([
    [
      'unknown column',
      'last_name = a && foo = 1',
      'where: unknown column "foo" at position 17',
      17,
    ],
    ['constructor is not a column', 'constructor = 1', 'unknown column "constructor"', 0],
    ['__proto__ is not a column', '__proto__ = 1', 'unknown column "__proto__"', 0],
    ['column with bareword characters', 'last.name = 1', 'invalid column name', 0],
    ['missing operator', 'last_name smith', 'expected an operator', 10],
    ['missing value', 'last_name =', 'expected a value but found end of input', 11],
    ['single &', 'last_name = a & hours = 1', 'unexpected character "&"', 14],
    ['single |', 'last_name = a | hours = 1', 'unexpected character "|"', 14],
    ['lone !', 'last_name ! a', 'unexpected character "!"', 10],
    ['double =', 'last_name == a', 'expected a value but found "="', 11],
    ['unterminated string', 'last_name = "abc', 'unterminated string', 12],
    ['bad escape', 'last_name = "a\\nb"', 'invalid escape', 14],
    ['trailing backslash', 'last_name = "a\\', 'unterminated string', 12],
    ['unbalanced (', '(last_name = a', 'expected ")"', 14],
    ['unbalanced )', 'last_name = a)', 'unbalanced ")"', 13],
    ['empty parens', '()', 'expected a column name but found ")"', 1],
    ['dangling &&', 'last_name = a &&', 'expected a column name but found end of input', 16],
    ['two comparisons without &&', 'hours=1 hours=2', 'expected "&&", "||" or end of input', 8],
    ['junk after number', 'hours = 12abc', 'but found "abc"', 10],
    ['unicode junk', 'hours = 1 && ü = 1', 'unexpected character "ü"', 13],
    ['keyword as value', 'last_name = desc', '"desc" is a keyword', 12],
    ['null with <', 'hours < null', 'cannot compare with null', 6],
    ['null with ~=', 'last_name ~= null', 'cannot compare with null', 10],
    ['like on integer', 'hours ~= "1%"', 'operator "~=" is not supported on column "hours"', 6],
    ['< on uuid', `id < "${UUID}"`, 'operator "<" is not supported on column "id"', 3],
    ['< on boolean', 'admin < true', 'operator "<" is not supported', 6],
    ['> on enum', 'type > manager', 'operator ">" is not supported', 5],
    ['enum with null', 'type = null', 'column "type" cannot be compared with null', 7],
    ['unknown enum value', 'type = boss', 'expected one of manager, staff, owner', 7],
    ['enum from prototype', 'type = constructor', 'expected one of', 7],
    ['number for string', 'last_name = 12', 'expected a string', 12],
    ['boolean for string', 'last_name = true', 'expected a string', 12],
    ['fraction for integer', 'hours = 1.5', 'expected an integer', 8],
    ['bareword for integer', 'hours = ten', 'expected an integer', 8],
    ['beyond int32', 'hours = 2147483648', 'within 32 bits', 8],
    ['beyond -int32', 'hours = "-2147483649"', 'within 32 bits', 8],
    ['string for float', 'rate = "abc"', 'expected a number', 7],
    ['infinite float', `rate = ${'9'.repeat(400)}`, 'within range', 7],
    ['number for boolean', 'admin = 1', 'expected true or false', 8],
    ['yes for string-boolean', 'active = "yes"', 'expected true or false', 9],
    ['bare timestamp', 'start > yesterday', 'quoted RFC 3339', 8],
    ['unquoted date', 'start > 2013-08-14T00:00:00Z', 'but found "-08"', 12],
    ['not a uuid', 'id = "123"', 'expected a UUID', 5],
    ['number for uuid', 'id = 123', 'expected a UUID', 5],
  ])('%s', (_name, text, message, position) => {
    const error = whereError(text);
    expect(error.message).toContain(message);
    expect(error.message).toMatch(new RegExp(`^where: .* at position ${position}$`));
    expect(error).toMatchObject({ parameter: 'where', position });
  });

  test('errors are BadRequestErrors with code BAD_REQUEST', () => {
    const error = badRequest(() => compileWhere('nope = 1', columns));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.details).toEqual({ parameter: 'where', position: 0 });
  });

  test('a long offending name is shortened in the message', () => {
    const error = whereError(`${'x'.repeat(1000)} = 1`);
    expect(error.message.length).toBeLessThan(120);
  });

  test('a non-string where (a repeated query parameter) is a client error', () => {
    expect(whereError(['a', 'b'] as any)).toMatchObject({ parameter: 'where', position: 0 });
  });
});

describe('caps', () => {
  test('the caps are exported', () => {
    expect([MAX_EXPRESSION_LENGTH, MAX_COMPARISONS, MAX_NESTING_DEPTH, MAX_ORDER_TERMS]).toEqual([
      4096, 64, 8, 8,
    ]);
  });

  test('expression length: 4096 characters pass, 4097 do not', () => {
    const padded = `last_name = "${'x'.repeat(MAX_EXPRESSION_LENGTH - 14)}"`;
    expect(padded.length).toBe(MAX_EXPRESSION_LENGTH);
    expect(compileWhere(padded, columns)).toEqual({
      lastName: { eq: 'x'.repeat(MAX_EXPRESSION_LENGTH - 14) },
    });
    expect(whereError(`${padded} `)).toMatchObject({ position: MAX_EXPRESSION_LENGTH });
    expect(orderError(`last_name${' '.repeat(MAX_EXPRESSION_LENGTH)}`)).toMatchObject({
      parameter: 'order',
      position: MAX_EXPRESSION_LENGTH,
    });
  });

  test('64 comparisons pass; the 65th is refused at its position', () => {
    const terms = Array.from({ length: MAX_COMPARISONS + 1 }, (_, i) => `hours=${i}`);
    const ok = compileWhere(terms.slice(0, MAX_COMPARISONS).join('&&'), columns) as any;
    expect(ok.and).toHaveLength(MAX_COMPARISONS);
    const text = terms.join('&&');
    expect(whereError(text)).toMatchObject({ position: text.lastIndexOf('hours') });
  });

  test('8 levels of parentheses pass; the 9th is refused at its position', () => {
    const nest = (depth: number) => `${'('.repeat(depth)}hours = 1${')'.repeat(depth)}`;
    expect(compileWhere(nest(MAX_NESTING_DEPTH), columns)).toEqual({ hours: { eq: 1 } });
    expect(whereError(nest(MAX_NESTING_DEPTH + 1))).toMatchObject({ position: MAX_NESTING_DEPTH });
    // Sibling groups do not add up: depth is nesting, not a count.
    const siblings = Array.from({ length: 20 }, () => nest(MAX_NESTING_DEPTH)).join(' || ');
    expect((compileWhere(siblings, columns) as any).or).toHaveLength(20);
  });

  test('pathological inputs are refused at their position, without blowing the stack', () => {
    expect(whereError('('.repeat(100_000))).toMatchObject({ position: MAX_EXPRESSION_LENGTH });
    expect(whereError('('.repeat(MAX_EXPRESSION_LENGTH))).toMatchObject({
      position: MAX_NESTING_DEPTH,
    });
    expect(whereError(')'.repeat(MAX_EXPRESSION_LENGTH))).toMatchObject({ position: 0 });
    expect(whereError(`"${'\\\\'.repeat(2000)}`)).toMatchObject({ position: 0 });
    expect(whereError('a'.repeat(MAX_EXPRESSION_LENGTH))).toMatchObject({
      position: MAX_EXPRESSION_LENGTH,
    });
    expect(whereError('hours=1||'.repeat(455))).toMatchObject({ position: 64 * 9 });
    expect(orderError('last_name,'.repeat(400))).toMatchObject({ position: 80 });
  });

  test('order: 8 terms pass; the 9th is refused at its position', () => {
    const terms = Array.from({ length: MAX_ORDER_TERMS + 1 }, () => 'hours desc');
    expect(compileOrderText(terms.slice(0, MAX_ORDER_TERMS).join(', '), columns)).toHaveLength(8);
    const text = terms.join(', ');
    expect(orderError(text)).toMatchObject({ position: text.lastIndexOf('hours') });
  });
});

describe('order', () => {
  test('two columns, each with its direction', () => {
    expect(compileOrderText('last_name asc, first_name desc', columns)).toEqual([
      { field: 'LAST_NAME', direction: 'ASC' },
      { field: 'FIRST_NAME', direction: 'DESC' },
    ]);
  });

  test('direction defaults to asc, keywords are case-insensitive, whitespace optional', () => {
    expect(compileOrderText('start', columns)).toEqual([{ field: 'START', direction: 'ASC' }]);
    expect(compileOrderText('start DESC,hours,active Asc', columns)).toEqual([
      { field: 'START', direction: 'DESC' },
      { field: 'HOURS', direction: 'ASC' },
      { field: 'ACTIVE', direction: 'ASC' },
    ]);
  });

  test('empty, whitespace-only and absent texts are the default order', () => {
    expect(compileOrderText(undefined, columns)).toBeUndefined();
    expect(compileOrderText('', columns)).toBeUndefined();
    expect(compileOrderText('  \n', columns)).toBeUndefined();
  });

  test.each([
    ['unknown column', 'last_name, foo desc', 'order: unknown column "foo" at position 11', 11],
    ['prototype key', 'toString', 'unknown column "toString"', 0],
    ['not orderable', 'hours, rate', 'column "rate" cannot be ordered by', 7],
    ['trailing comma', 'hours,', 'expected a column name but found end of input', 6],
    ['leading comma', ',hours', 'expected a column name but found ","', 0],
    ['bad direction', 'hours up', 'expected asc, desc, "," or end of input but found "up"', 6],
    ['two directions', 'hours asc desc', 'expected "," or end of input but found "desc"', 10],
    ['descending prefix', '-hours', 'unexpected character "-"', 0],
    ['where syntax', 'hours = 1', 'but found "="', 6],
    ['dotted name', 'hours.x', 'unknown column "hours.x"', 0],
  ])('%s', (_name, text, message, position) => {
    const error = orderError(text);
    expect(error.message).toContain(message);
    expect(error.message).toMatch(new RegExp(`^order: .* at position ${position}$`));
    expect(error).toMatchObject({ parameter: 'order', position });
  });
});

// ---------------------------------------------------------------------------------------------
// Property tests

const positions = { column: 0, op: 0, value: 0 };
const ALL_OPS: ComparisonOp[] = ['=', '!=', '~=', '<', '<=', '>', '>='];
const ORDERED_OPS: ComparisonOp[] = ['=', '!=', '<', '<=', '>', '>='];
const EQUALITY_OPS: ComparisonOp[] = ['=', '!='];

const KEYWORDS = ['null', 'true', 'false', 'asc', 'desc'];
const bareword = fc
  .stringMatching(/^[A-Za-z_][A-Za-z0-9_.:-]{0,12}$/)
  .filter((word) => !KEYWORDS.includes(word.toLowerCase()));
// Valid string values: any text PostgreSQL can hold, so no NUL (a NUL value is refused with 400).
const anyText = fc
  .oneof(
    fc.string({ maxLength: 12 }),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.string({ unit: fc.constantFrom('"', '\\', ' ', 'x', '&', '|', '('), maxLength: 8 }),
  )
  .filter((text) => !text.includes('\u0000'));
const randomCase = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((flags) => [...text].map((ch, i) => (flags[i] ? ch.toUpperCase() : ch)).join(''));
const textValue = (value: fc.Arbitrary<string>): fc.Arbitrary<WhereValue> =>
  value.map((v) => ({ kind: 'string', value: v }));
const nullable = (ops: ComparisonOp[], value: fc.Arbitrary<WhereValue>) =>
  fc.oneof(
    fc.record({ op: fc.constantFrom(...ops), value }),
    fc.record({
      op: fc.constantFrom<ComparisonOp>('=', '!='),
      value: fc.constant<WhereValue>({ kind: 'null' }),
    }),
  );

const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map(String);
const offset = fc.oneof(
  fc.constantFrom('Z', 'z', '+00:00', '-00:00'),
  fc
    .tuple(
      fc.constantFrom('+', '-'),
      fc.integer({ min: 0, max: 23 }),
      fc.integer({ min: 0, max: 59 }),
    )
    .map(([s, h, m]) => `${s}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
);
const timestamp = fc
  .tuple(
    fc.date({
      min: new Date('1900-01-02T00:00:00Z'),
      max: new Date('9998-12-30T00:00:00Z'),
      noInvalidDate: true,
    }),
    offset,
    fc.constantFrom('', '.5', '.123', '.123456789'),
  )
  .map(([date, zone, fraction]) => `${date.toISOString().slice(0, 19)}${fraction}${zone}`);

/** For each sample column, the (op, value) pairs that compile. */
const comparisonsFor: Record<string, fc.Arbitrary<{ op: ComparisonOp; value: WhereValue }>> = {
  last_name: nullable(
    ALL_OPS,
    fc.oneof(
      textValue(anyText),
      bareword.map((v): WhereValue => ({ kind: 'bareword', value: v })),
    ),
  ),
  first_name: nullable(ALL_OPS, textValue(anyText)),
  hours: nullable(
    ORDERED_OPS,
    fc.oneof(
      int32.map((text): WhereValue => ({ kind: 'number', text })),
      textValue(int32),
    ),
  ),
  rate: nullable(
    ORDERED_OPS,
    fc
      .tuple(fc.integer({ min: -1e6, max: 1e6 }), fc.option(fc.stringMatching(/^[0-9]{1,6}$/)))
      .map(([whole, fraction]): WhereValue => ({
        kind: 'number',
        text: fraction === null ? String(whole) : `${whole}.${fraction}`,
      })),
  ),
  admin: nullable(
    EQUALITY_OPS,
    fc.oneof(
      fc.boolean().map((value): WhereValue => ({ kind: 'boolean', value })),
      textValue(fc.constantFrom('true', 'false').chain(randomCase)),
    ),
  ),
  active: nullable(
    EQUALITY_OPS,
    fc.oneof(
      fc.boolean().map((value): WhereValue => ({ kind: 'boolean', value })),
      textValue(fc.constantFrom('true', 'false')),
    ),
  ),
  start: nullable(ORDERED_OPS, textValue(timestamp)),
  id: nullable(
    EQUALITY_OPS,
    fc
      .tuple(
        fc.uuid().chain(randomCase),
        fc.constantFrom<'string' | 'bareword'>('string', 'bareword'),
      )
      .map(([value, kind]): WhereValue => ({ kind, value })),
  ),
  type: fc.record({
    op: fc.constantFrom(...EQUALITY_OPS),
    value: fc
      .tuple(
        fc.constantFrom(...Object.keys(ROLES)).chain(randomCase),
        fc.constantFrom<'string' | 'bareword'>('string', 'bareword'),
      )
      .map(([value, kind]): WhereValue => ({ kind, value })),
  }),
};

const comparison: fc.Arbitrary<Comparison> = fc
  .constantFrom(...Object.keys(comparisonsFor))
  .chain((column) =>
    comparisonsFor[column].map(({ op, value }): Comparison => ({
      kind: 'comparison',
      column,
      op,
      value,
      positions,
    })),
  );

/** Brings a generated tree to the parser's canonical form: same-kind chains flattened. */
function canonical(node: WhereNode): WhereNode {
  if (node.kind === 'comparison') return node;
  const operands = node.operands
    .map(canonical)
    .flatMap((operand) => (operand.kind === node.kind ? operand.operands : [operand]));
  return { kind: node.kind, operands };
}

function countComparisons(node: WhereNode): number {
  return node.kind === 'comparison'
    ? 1
    : node.operands.reduce((sum, operand) => sum + countComparisons(operand), 0);
}

const { tree } = fc.letrec<{ tree: WhereNode }>((tie) => ({
  tree: fc.oneof(
    { maxDepth: 5, depthSize: 'small' },
    comparison,
    fc.record({
      kind: fc.constantFrom<'and' | 'or'>('and', 'or'),
      operands: fc.array(tie('tree'), { minLength: 2, maxLength: 4 }),
    }),
  ),
}));

const validAst = tree
  .map(canonical)
  .filter(
    (ast) =>
      countComparisons(ast) <= MAX_COMPARISONS && printWhere(ast).length <= MAX_EXPRESSION_LENGTH,
  );

function checkPositions(node: WhereNode, text: string): void {
  if (node.kind !== 'comparison') {
    node.operands.forEach((operand) => checkPositions(operand, text));
    return;
  }
  expect(text.startsWith(node.column, node.positions.column)).toBe(true);
  expect(text.startsWith(node.op, node.positions.op)).toBe(true);
}

/** Asserts the outcome is a filter, nothing, or a well-formed BadRequestError. */
function compilesOrRefuses(fn: () => unknown, text: string, parameter: 'where' | 'order'): unknown {
  try {
    return fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestError);
    const { details, message } = error as BadRequestError;
    expect(details.parameter).toBe(parameter);
    expect(typeof details.position).toBe('number');
    const position = details.position as number;
    expect(Number.isInteger(position)).toBe(true);
    expect(position).toBeGreaterThanOrEqual(0);
    expect(position).toBeLessThanOrEqual(text.length);
    expect(message.endsWith(` at position ${position}`)).toBe(true);
    return undefined;
  }
}

const FILTER_FIELDS = new Set(Object.values(columns).map((spec) => spec.filter));
const OPERATORS = new Set<string>(FILTER_OPERATORS);

/** Every key is and/or, an allowlisted filter field, or (one level down) an operator. */
function assertAllowlisted(filter: unknown): void {
  expect(filter).toBeInstanceOf(Object);
  const entries = Object.entries(filter as Record<string, unknown>);
  expect(entries).toHaveLength(1);
  const [key, value] = entries[0];
  if (key === 'and' || key === 'or') {
    expect(Array.isArray(value)).toBe(true);
    (value as unknown[]).forEach(assertAllowlisted);
    return;
  }
  expect(FILTER_FIELDS.has(key)).toBe(true);
  const operators = Object.entries(value as Record<string, unknown>);
  expect(operators).toHaveLength(1);
  const [operator, operand] = operators[0];
  expect(OPERATORS.has(operator)).toBe(true);
  expect(['string', 'number', 'boolean']).toContain(typeof operand);
}

const TOKENS = [
  '(',
  ')',
  '&&',
  '||',
  '&',
  '|',
  '=',
  '!=',
  '~=',
  '<',
  '<=',
  '>',
  '>=',
  '!',
  '~',
  ',',
  ' ',
  '  ',
  'null',
  'NULL',
  'true',
  'False',
  'asc',
  'DESC',
  '0',
  '42',
  '-7',
  '-1.5',
  '2147483648',
  '1.',
  '"x"',
  '"a\\"b"',
  '"\\\\"',
  '"',
  '\\',
  '"true"',
  '"100"',
  '"2013-08-14T00:00:00Z"',
  `"${UUID}"`,
  UUID,
  'last_name',
  'first_name',
  'hours',
  'rate',
  'admin',
  'active',
  'start',
  'id',
  'type',
  'manager',
  'foo',
  'constructor',
  '__proto__',
  'a.b',
  'ü',
  '😀',
  '\n',
  '-',
  '.',
];
const tokenSoup = fc
  .tuple(fc.array(fc.constantFrom(...TOKENS), { maxLength: 24 }), fc.constantFrom('', ' '))
  .map(([tokens, glue]) => tokens.join(glue));

/** A valid expression with a few random single-character edits. */
const mutated = fc
  .tuple(
    validAst.map(printWhere),
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.constantFrom('insert', 'delete', 'replace'),
        fc.constantFrom(...TOKENS),
      ),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([text, edits]) =>
    edits.reduce((acc, [at, edit, token]) => {
      const i = acc.length === 0 ? 0 : at % acc.length;
      if (edit === 'insert') return acc.slice(0, i) + token + acc.slice(i);
      if (edit === 'delete') return acc.slice(0, i) + acc.slice(i + 1);
      return acc.slice(0, i) + token + acc.slice(i + 1);
    }, text),
  );

const anyInput = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  tokenSoup,
  mutated,
);

test('a NUL inside a quoted string value is a 400 at the value', () => {
  expect(() => compileWhere('last_name = "a\u0000b"', columns)).toThrow(
    /NUL characters for column "last_name" at position 12/,
  );
});

describe('properties', () => {
  test('printWhere → parseWhere round-trips every valid AST, and both compile alike', () => {
    fc.assert(
      fc.property(validAst, (ast) => {
        const text = printWhere(ast);
        const parsed = parseWhere(text);
        expect(parsed).toBeDefined();
        expect(strip(parsed!)).toEqual(strip(ast));
        checkPositions(parsed!, text);
        expect(printWhere(parsed!)).toBe(text);
        const direct = compileWhereAst(ast, columns);
        expect(compileWhere(text, columns)).toEqual(direct);
        assertAllowlisted(direct);
      }),
      { numRuns: 700 },
    );
  });

  test('any where text compiles or throws a positioned BadRequestError, never anything else', () => {
    fc.assert(
      fc.property(anyInput, (text) => {
        const filter = compilesOrRefuses(() => compileWhere(text, columns), text, 'where');
        if (filter !== undefined) assertAllowlisted(filter);
      }),
      { numRuns: 3000 },
    );
  });

  test('any order text compiles or throws a positioned BadRequestError, never anything else', () => {
    const orderSoup = fc
      .array(
        fc.constantFrom(
          ',',
          ' ',
          'asc',
          'DESC',
          'hours',
          'last_name',
          'rate',
          'foo',
          '-',
          '"',
          '(',
        ),
        { maxLength: 20 },
      )
      .map((tokens) => tokens.join(''));
    fc.assert(
      fc.property(fc.oneof(anyInput, orderSoup), (text) => {
        const order = compilesOrRefuses(() => compileOrderText(text, columns), text, 'order');
        if (order !== undefined) {
          const fields = new Set(Object.values(columns).map((spec) => spec.order));
          for (const term of order as { field: string; direction: string }[]) {
            expect(fields.has(term.field)).toBe(true);
            expect(['ASC', 'DESC']).toContain(term.direction);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('timestamps normalise to the same instant in toISOString form', () => {
    fc.assert(
      fc.property(timestamp, (stamp) => {
        const iso = parseRfc3339(stamp);
        expect(iso).toBeDefined();
        const truncated = stamp.replace(/(\.\d{3})\d+/, '$1');
        expect(iso).toBe(new Date(truncated.replace(/z$/, 'Z')).toISOString());
      }),
      { numRuns: 500 },
    );
  });
});
