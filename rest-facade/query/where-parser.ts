import { BadRequestError } from '../../src/core/errors';

/**
 * The legacy `where` language, parsed into a small AST:
 *
 *   where      := or_expr
 *   or_expr    := and_expr ( '||' and_expr )*        -- && binds tighter than ||
 *   and_expr   := primary ( '&&' primary )*
 *   primary    := '(' or_expr ')' | comparison
 *   comparison := column op value
 *   op         := '=' | '!=' | '~=' | '<' | '<=' | '>' | '>='
 *   value      := null | true | false | number | "double-quoted string" | bareword
 *
 * The text comes straight from a query string, so everything is bounded: the length is checked
 * before any work, the lexer makes one left-to-right pass, and the recursive descent can recurse
 * only as deep as the parenthesis cap allows. Every failure is a BadRequestError with the 0-based
 * offset of the offending character.
 */

/** Longest `where` (or `order`) text accepted, in UTF-16 code units (String.length). */
export const MAX_EXPRESSION_LENGTH = 4096;
/** Most comparisons in one `where` expression. */
export const MAX_COMPARISONS = 64;
/** Deepest parenthesis nesting in one `where` expression. */
export const MAX_NESTING_DEPTH = 8;

export type QueryParameter = 'where' | 'order';

export type ComparisonOp = '=' | '!=' | '~=' | '<' | '<=' | '>' | '>=';

export const COMPARISON_OPS: readonly ComparisonOp[] = ['=', '!=', '~=', '<', '<=', '>', '>='];

export type WhereValue =
  | { readonly kind: 'null' }
  | { readonly kind: 'boolean'; readonly value: boolean }
  /** The source text is kept, not a JS number, so no precision is lost and printing is exact. */
  | { readonly kind: 'number'; readonly text: string }
  /** A double-quoted string, unescaped. */
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'bareword'; readonly value: string };

export interface Comparison {
  readonly kind: 'comparison';
  readonly column: string;
  readonly op: ComparisonOp;
  readonly value: WhereValue;
  /** Offsets into the source text, for error messages; 0 for ASTs not parsed from text. */
  readonly positions: { readonly column: number; readonly op: number; readonly value: number };
}

/**
 * A chain of one operator. The parser builds it canonically: at least two operands, none of them a
 * junction of the same kind (chains and redundant parentheses are flattened).
 */
export interface Junction {
  readonly kind: 'and' | 'or';
  readonly operands: readonly WhereNode[];
}

export type WhereNode = Comparison | Junction;

/** Builds the client error every part of the query language throws. */
export function queryError(
  parameter: QueryParameter,
  message: string,
  position: number,
): BadRequestError {
  return new BadRequestError(`${parameter}: ${message} at position ${position}`, {
    parameter,
    position,
  });
}

/** Quotes a piece of client text for a message, cut short so a 4 KB value is not echoed whole. */
export function quoteForMessage(text: string): string {
  const short = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return JSON.stringify(short);
}

/** Only ASCII whitespace separates tokens; anything else is an error, not silently skipped. */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** True for an empty or whitespace-only text, which means "no filter" / "default order". */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

export type TokenKind =
  '(' | ')' | ',' | '&&' | '||' | 'op' | 'string' | 'number' | 'word' | 'keyword' | 'end';

export interface Token {
  readonly kind: TokenKind;
  /**
   * The source text, except: a string's unescaped value, and a keyword in lower case (keywords are
   * case-insensitive).
   */
  readonly text: string;
  readonly position: number;
}

const KEYWORDS: ReadonlySet<string> = new Set(['null', 'true', 'false', 'asc', 'desc']);

/** Column names are plain identifiers, although the lexer reads the wider bareword alphabet. */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

// Sticky, so each match is anchored where the lexer stands and never scans ahead.
const WORD = /[A-Za-z_][A-Za-z0-9_.:-]*/y;
const NUMBER = /-?[0-9]+(?:\.[0-9]+)?/y;
// A bare UUID that starts with a digit would otherwise lex as a number followed by junk (a syntax
// error), so it is read as one bareword; this only turns such errors into the obvious meaning.
const BARE_UUID =
  /[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![A-Za-z0-9_.:-])/y;

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= '0' && ch <= '9';
}

function isWordStart(ch: string): boolean {
  return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch === '_';
}

function matchAt(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

/** A one-token-lookahead lexer shared by the `where` and `order` parsers; it lexes on demand. */
export class Lexer {
  private pos = 0;
  private peeked: Token | undefined;

  constructor(
    private readonly text: string,
    private readonly parameter: QueryParameter,
  ) {}

  peek(): Token {
    this.peeked ??= this.scan();
    return this.peeked;
  }

  next(): Token {
    const token = this.peek();
    this.peeked = undefined;
    return token;
  }

  error(message: string, position: number): BadRequestError {
    return queryError(this.parameter, message, position);
  }

  /** "expected X but found Y" at the token that was found. */
  unexpected(expected: string, found: Token): BadRequestError {
    return this.error(`expected ${expected} but found ${describeToken(found)}`, found.position);
  }

  private token(kind: TokenKind, text: string, position: number, end: number): Token {
    this.pos = end;
    return { kind, text, position };
  }

  private scan(): Token {
    const text = this.text;
    let i = this.pos;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    if (i >= text.length) return this.token('end', '', text.length, text.length);
    const ch = text[i];
    switch (ch) {
      case '(':
      case ')':
      case ',':
        return this.token(ch, ch, i, i + 1);
      case '&':
      case '|':
        if (text[i + 1] === ch) return this.token(ch === '&' ? '&&' : '||', ch + ch, i, i + 2);
        throw this.error(`unexpected character "${ch}" (did you mean "${ch}${ch}"?)`, i);
      case '=':
        return this.token('op', '=', i, i + 1);
      case '!':
      case '~':
        if (text[i + 1] === '=') return this.token('op', `${ch}=`, i, i + 2);
        throw this.error(`unexpected character "${ch}" (did you mean "${ch}="?)`, i);
      case '<':
      case '>':
        if (text[i + 1] === '=') return this.token('op', `${ch}=`, i, i + 2);
        return this.token('op', ch, i, i + 1);
      case '"':
        return this.scanString(i);
    }
    if (isDigit(ch)) {
      const uuid = matchAt(BARE_UUID, text, i);
      if (uuid !== undefined) return this.token('word', uuid, i, i + uuid.length);
    }
    if (isDigit(ch) || (ch === '-' && isDigit(text[i + 1]))) {
      const number = matchAt(NUMBER, text, i) ?? ch;
      return this.token('number', number, i, i + number.length);
    }
    if (isWordStart(ch)) {
      const word = matchAt(WORD, text, i) ?? ch;
      const lower = word.toLowerCase();
      if (KEYWORDS.has(lower)) return this.token('keyword', lower, i, i + word.length);
      return this.token('word', word, i, i + word.length);
    }
    const codePoint = String.fromCodePoint(text.codePointAt(i) ?? 0);
    throw this.error(`unexpected character ${JSON.stringify(codePoint)}`, i);
  }

  /** A double-quoted string; `\"` and `\\` are the only escapes, so anything else is refused. */
  private scanString(start: number): Token {
    const text = this.text;
    let value = '';
    let chunk = start + 1;
    let i = chunk;
    for (;;) {
      if (i >= text.length) throw this.error('unterminated string', start);
      const ch = text[i];
      if (ch === '"') {
        value += text.slice(chunk, i);
        return this.token('string', value, start, i + 1);
      }
      if (ch === '\\') {
        const escaped = text[i + 1];
        if (escaped === undefined) throw this.error('unterminated string', start);
        if (escaped !== '"' && escaped !== '\\') {
          throw this.error('invalid escape in string (only \\" and \\\\ are allowed)', i);
        }
        value += text.slice(chunk, i) + escaped;
        i += 2;
        chunk = i;
        continue;
      }
      i++;
    }
  }
}

function describeToken(token: Token): string {
  switch (token.kind) {
    case 'end':
      return 'end of input';
    case 'string':
      return `the string ${quoteForMessage(token.text)}`;
    default:
      return quoteForMessage(token.text);
  }
}

/**
 * Parses a `where` text into its canonical AST; undefined for an empty or whitespace-only text.
 * Throws BadRequestError (parameter 'where', with a position) for anything else that is not valid.
 */
export function parseWhere(text: string | undefined): WhereNode | undefined {
  if (text === undefined) return undefined;
  // Query strings can arrive as arrays (`?where=a&where=b`); refuse them as the client's error.
  if (typeof text !== 'string') throw queryError('where', 'expected a single string', 0);
  if (text.length > MAX_EXPRESSION_LENGTH) {
    throw queryError(
      'where',
      `expression is longer than ${MAX_EXPRESSION_LENGTH} characters`,
      MAX_EXPRESSION_LENGTH,
    );
  }
  if (isBlank(text)) return undefined;
  return new WhereParser(text).parse();
}

class WhereParser {
  private readonly lexer: Lexer;
  private comparisons = 0;

  constructor(text: string) {
    this.lexer = new Lexer(text, 'where');
  }

  parse(): WhereNode {
    const node = this.parseOr(0);
    const rest = this.lexer.peek();
    if (rest.kind !== 'end') {
      if (rest.kind === ')') throw this.lexer.error('unbalanced ")"', rest.position);
      throw this.lexer.unexpected('"&&", "||" or end of input', rest);
    }
    return node;
  }

  // `depth` counts the open parentheses around the current point; the cap on it bounds the
  // recursion, so no input can exhaust the stack.
  private parseOr(depth: number): WhereNode {
    const operands = [this.parseAnd(depth)];
    while (this.lexer.peek().kind === '||') {
      this.lexer.next();
      operands.push(this.parseAnd(depth));
    }
    return junction('or', operands);
  }

  private parseAnd(depth: number): WhereNode {
    const operands = [this.parsePrimary(depth)];
    while (this.lexer.peek().kind === '&&') {
      this.lexer.next();
      operands.push(this.parsePrimary(depth));
    }
    return junction('and', operands);
  }

  private parsePrimary(depth: number): WhereNode {
    const open = this.lexer.peek();
    if (open.kind !== '(') return this.parseComparison();
    if (depth >= MAX_NESTING_DEPTH) {
      throw this.lexer.error(
        `parentheses are nested more than ${MAX_NESTING_DEPTH} deep`,
        open.position,
      );
    }
    this.lexer.next();
    const inner = this.parseOr(depth + 1);
    const close = this.lexer.next();
    if (close.kind !== ')') {
      throw this.lexer.unexpected(`")" to close the "(" at position ${open.position}`, close);
    }
    return inner;
  }

  private parseComparison(): Comparison {
    const column = this.lexer.next();
    if (column.kind !== 'word') throw this.lexer.unexpected('a column name', column);
    if (!IDENTIFIER.test(column.text)) {
      throw this.lexer.error(
        `invalid column name ${quoteForMessage(column.text)}`,
        column.position,
      );
    }
    if (++this.comparisons > MAX_COMPARISONS) {
      throw this.lexer.error(`more than ${MAX_COMPARISONS} comparisons`, column.position);
    }
    const op = this.lexer.next();
    if (op.kind !== 'op') {
      throw this.lexer.unexpected('an operator (=, !=, ~=, <, <=, >, >=)', op);
    }
    const valueToken = this.lexer.next();
    return {
      kind: 'comparison',
      column: column.text,
      op: op.text as ComparisonOp,
      value: this.toValue(valueToken),
      positions: { column: column.position, op: op.position, value: valueToken.position },
    };
  }

  private toValue(token: Token): WhereValue {
    switch (token.kind) {
      case 'keyword':
        if (token.text === 'null') return { kind: 'null' };
        if (token.text === 'true' || token.text === 'false') {
          return { kind: 'boolean', value: token.text === 'true' };
        }
        // asc/desc are keywords of the language, so they are not barewords here either.
        throw this.lexer.error(
          `"${token.text}" is a keyword; quote it to use it as a value`,
          token.position,
        );
      case 'number':
        return { kind: 'number', text: token.text };
      case 'string':
        return { kind: 'string', value: token.text };
      case 'word':
        return { kind: 'bareword', value: token.text };
      default:
        throw this.lexer.unexpected('a value', token);
    }
  }
}

/** Joins operands under one operator, flattening nested chains of the same operator. */
function junction(kind: 'and' | 'or', operands: WhereNode[]): WhereNode {
  if (operands.length === 1) return operands[0];
  const flat: WhereNode[] = [];
  for (const operand of operands) {
    if (operand.kind === kind) flat.push(...operand.operands);
    else flat.push(operand);
  }
  return { kind, operands: flat };
}

/**
 * Prints an AST as canonical `where` text: single spaces around operators, strings always quoted
 * and escaped, and parentheses only where precedence needs them. Parsing the result gives back the
 * same canonical AST (positions aside).
 */
export function printWhere(node: WhereNode): string {
  if (node.kind === 'comparison') {
    return `${node.column} ${node.op} ${printValue(node.value)}`;
  }
  const separator = node.kind === 'and' ? ' && ' : ' || ';
  return node.operands
    .map((operand) => {
      const text = printWhere(operand);
      // An `or` inside an `and` needs parentheses; so does a same-kind junction, which a canonical
      // AST never has, to print a hand-built one faithfully.
      const needsParens = operand.kind === 'or' || operand.kind === node.kind;
      return needsParens ? `(${text})` : text;
    })
    .join(separator);
}

function printValue(value: WhereValue): string {
  switch (value.kind) {
    case 'null':
      return 'null';
    case 'boolean':
      return value.value ? 'true' : 'false';
    case 'number':
      return value.text;
    case 'string':
      return `"${value.value.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`;
    case 'bareword':
      return value.value;
  }
}
