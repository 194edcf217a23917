import { ValidationError, type EntityName, type FieldError } from '../../src/core/errors';
import { DATE_TIME_RULE, parseDateTimeText } from '../../src/core/instants';
import { INT32_MAX } from '../int32';

/**
 * Legacy request fields to GraphQL input fields. Values arrive typed from JSON bodies and as text
 * from form bodies (and XML), so every kind accepts both; a value it cannot read is a 422 naming
 * the legacy field, before anything reaches GraphQL.
 */
export interface FieldKind {
  /** Returns the GraphQL value, or throws a FieldProblem. */
  readonly convert: (value: unknown) => unknown;
  /** JSON Schema of the accepted wire values, for the OpenAPI document. */
  readonly schema: Readonly<Record<string, unknown>>;
}

export interface InputField {
  /** The GraphQL input field it fills. */
  readonly to: string;
  readonly kind: FieldKind;
}

export type InputTable = Readonly<Record<string, InputField>>;

/** A value a field kind cannot read; the message completes "<field> ...". */
export class FieldProblem extends Error {}

function blank(value: unknown): boolean {
  return value === null || value === '';
}

export const text: FieldKind = {
  schema: { type: ['string', 'null'] },
  convert(value) {
    if (value === null) return null;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw new FieldProblem('must be text');
  },
};

/**
 * What `text` made of a field, as a String variable of its own (not in an input object): the
 * text, null, or absent when the client sent no such field.
 */
export function textValue(converted: unknown): string | null | undefined {
  return typeof converted === 'string' || converted === null ? converted : undefined;
}

/** Write-only: accepted on create and update, never rendered. */
export const password: FieldKind = { ...text, schema: { type: 'string', writeOnly: true } };

export const integer: FieldKind = {
  schema: { type: ['integer', 'null'] },
  convert(value) {
    if (blank(value)) return null;
    const number = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isInteger(number) || Math.abs(number) > INT32_MAX) {
      throw new FieldProblem('must be a whole number');
    }
    return number;
  },
};

export const decimal: FieldKind = {
  schema: { type: ['number', 'null'] },
  convert(value) {
    if (blank(value)) return null;
    const number =
      typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isFinite(number))
      throw new FieldProblem('must be a number');
    return number;
  },
};

/** A decimal amount on the wire (`1250.50`), whole cents in GraphQL. */
export const centsFromAmount: FieldKind = {
  schema: decimal.schema,
  convert(value) {
    const amount = decimal.convert(value) as number | null;
    if (amount === null) return null;
    const cents = Math.round(amount * 100);
    if (Math.abs(cents) > INT32_MAX) throw new FieldProblem('is too large');
    return cents;
  },
};

const TRUE_TEXTS = new Set(['true', '1', 't', 'yes']);
const FALSE_TEXTS = new Set(['false', '0', 'f', 'no']);

/** Real booleans, and the strings old clients send for them (`active: "true"`, form `billable=0`). */
export const boolean: FieldKind = {
  schema: {
    anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }, { type: 'null' }],
  },
  convert(value) {
    if (blank(value)) return null;
    if (typeof value === 'boolean') return value;
    if (typeof value === 'string' || typeof value === 'number') {
      const word = String(value).trim().toLowerCase();
      if (TRUE_TEXTS.has(word)) return true;
      if (FALSE_TEXTS.has(word)) return false;
    }
    throw new FieldProblem('must be true or false');
  },
};

/** A uuid reference; blank means none. The service says whether it exists. */
export const uuid: FieldKind = {
  schema: { type: ['string', 'null'], format: 'uuid' },
  convert(value) {
    if (blank(value)) return null;
    if (typeof value !== 'string') throw new FieldProblem('must be a uuid');
    return value.trim();
  },
};

/** A list given as an array or as comma-separated text (form bodies, legacy tag strings). */
function listOf(item: 'uuid' | 'text'): FieldKind {
  return {
    schema: {
      anyOf: [
        {
          type: 'array',
          items: { type: 'string', ...(item === 'uuid' ? { format: 'uuid' } : {}) },
        },
        { type: 'string' },
        { type: 'null' },
      ],
    },
    convert(value) {
      if (blank(value)) return [];
      const items = typeof value === 'string' ? value.split(',') : value;
      if (
        !Array.isArray(items) ||
        !items.every((entry) => typeof entry === 'string' || typeof entry === 'number')
      ) {
        throw new FieldProblem(
          item === 'uuid' ? 'must be a list of uuids' : 'must be a list of text',
        );
      }
      return items.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
    },
  };
}

export const uuidList = listOf('uuid');
export const tagList = listOf('text');

/** Comma-separated tags kept exactly as written (`default_tags`); a list is joined with commas. */
export const tagText: FieldKind = {
  schema: tagList.schema,
  convert(value) {
    if (value === null || typeof value === 'string') return value;
    return (tagList.convert(value) as string[]).join(',');
  },
};

/** Integer ids as the XML interface sends them. */
export const integerList: FieldKind = {
  schema: {
    anyOf: [{ type: 'array', items: { type: 'integer' } }, { type: 'string' }, { type: 'null' }],
  },
  convert(value) {
    return (uuidList.convert(value) as string[]).map((entry) => integer.convert(entry));
  },
};

/**
 * RFC 3339; an offset is normalised to UTC, and a time without a zone is read as UTC. A value that
 * names no real moment (30 February, hour 24, year 0000 or 10000) is refused by the service's one
 * date-time rule, never rolled over.
 */
export const timestamp: FieldKind = {
  schema: { type: ['string', 'null'], format: 'date-time' },
  convert(value) {
    if (blank(value)) return null;
    const instant = typeof value === 'string' ? parseDateTimeText(value, 'UTC') : undefined;
    if (!instant) throw new FieldProblem(DATE_TIME_RULE);
    return instant.toISOString();
  },
};

/** Lower-case wire words to GraphQL enum values. */
export function oneOf(values: Readonly<Record<string, string>>): FieldKind {
  const words = Object.keys(values);
  return {
    schema: { type: 'string', enum: words },
    convert(value) {
      const word = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
      if (word === undefined || !Object.hasOwn(values, word))
        throw new FieldProblem(`must be one of ${words.join(', ')}`);
      return values[word];
    },
  };
}

/**
 * Maps the legacy fields present in `body` to a GraphQL input. Fields the table does not list are
 * read-only or unknown (clients send back whole objects with totals) and are ignored; every
 * unreadable value is reported at once.
 */
export function mapInput(
  entity: EntityName,
  body: Readonly<Record<string, unknown>>,
  table: InputTable,
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const problems: FieldError[] = [];
  for (const [name, field] of Object.entries(table)) {
    if (!Object.hasOwn(body, name) || body[name] === undefined) continue;
    try {
      input[field.to] = field.kind.convert(body[name]);
    } catch (error) {
      if (!(error instanceof FieldProblem)) throw error;
      problems.push({ field: name, message: error.message });
    }
  }
  if (problems.length) throw new ValidationError(entity, problems);
  return input;
}

/** The legacy name of a GraphQL input field, for the field errors of an answer. */
export function legacyFieldName(table: InputTable, graphqlField: string): string {
  for (const [name, field] of Object.entries(table)) if (field.to === graphqlField) return name;
  return graphqlField;
}
