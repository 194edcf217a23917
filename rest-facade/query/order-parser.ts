import { ColumnTable, lookupColumn } from './columns';
import {
  IDENTIFIER,
  Lexer,
  MAX_EXPRESSION_LENGTH,
  isBlank,
  queryError,
  quoteForMessage,
} from './where-parser';

/**
 * The legacy `order` parameter:
 *
 *   order := column [asc|desc] ( ',' column [asc|desc] )*   -- default asc
 *
 * compiled straight into the GraphQL order input list. It shares the `where` lexer, so the two
 * agree on whitespace, keywords (asc/desc are case-insensitive) and error positions.
 */

/** Most terms in one `order` text. */
export const MAX_ORDER_TERMS = 8;

export interface OrderTerm<Order extends string = string> {
  field: Order;
  direction: 'ASC' | 'DESC';
}

/**
 * Parses and compiles an `order` text against a resource's columns; undefined (default order) for
 * an absent, empty or whitespace-only text. Throws BadRequestError for anything invalid, including
 * a column that is unknown or has no GraphQL order value.
 */
export function compileOrderText<Order extends string>(
  text: string | undefined,
  columns: ColumnTable<Order>,
): OrderTerm<Order>[] | undefined {
  if (text === undefined) return undefined;
  // Query strings can arrive as arrays (`?order=a&order=b`); refuse them as the client's error.
  if (typeof text !== 'string') throw queryError('order', 'expected a single string', 0);
  if (text.length > MAX_EXPRESSION_LENGTH) {
    throw queryError(
      'order',
      `text is longer than ${MAX_EXPRESSION_LENGTH} characters`,
      MAX_EXPRESSION_LENGTH,
    );
  }
  if (isBlank(text)) return undefined;

  const lexer = new Lexer(text, 'order');
  const terms: OrderTerm<Order>[] = [];
  for (;;) {
    const column = lexer.next();
    if (column.kind !== 'word') throw lexer.unexpected('a column name', column);
    if (terms.length >= MAX_ORDER_TERMS) {
      throw lexer.error(`more than ${MAX_ORDER_TERMS} order terms`, column.position);
    }
    const spec = IDENTIFIER.test(column.text) ? lookupColumn(columns, column.text) : undefined;
    if (spec === undefined) {
      throw lexer.error(`unknown column ${quoteForMessage(column.text)}`, column.position);
    }
    if (spec.order === undefined) {
      throw lexer.error(`column "${column.text}" cannot be ordered by`, column.position);
    }
    const keyword = lexer.peek();
    const explicit =
      keyword.kind === 'keyword' && (keyword.text === 'asc' || keyword.text === 'desc');
    if (explicit) lexer.next();
    terms.push({
      field: spec.order,
      direction: explicit && keyword.text === 'desc' ? 'DESC' : 'ASC',
    });

    const separator = lexer.next();
    if (separator.kind === 'end') return terms;
    if (separator.kind !== ',') {
      const expected = explicit ? '"," or end of input' : 'asc, desc, "," or end of input';
      throw lexer.unexpected(expected, separator);
    }
  }
}
