import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { DateTimeISOResolver as LibraryDateTimeISO } from 'graphql-scalars';
import { DATE_TIME_RULE, parseInstant } from '../../../core/instants';

/** Reads an input value by the service's one date-time rule (common/instants.ts). */
function parseDateTimeISO(value: unknown): Date {
  const text =
    value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : value;
  const instant = typeof text === 'string' ? parseInstant(text) : undefined;
  if (!instant)
    throw new GraphQLError(
      `DateTimeISO cannot represent ${JSON.stringify(text)}: the value ${DATE_TIME_RULE}`,
    );
  return instant;
}

/**
 * graphql-scalars' DateTimeISO (same name, output and description), with input read by the
 * service's rule rather than the library's own calendar check, so GraphQL refuses exactly what
 * the legacy interfaces refuse. Every DateTimeISO field of the schema uses this one.
 */
export const DateTimeISOResolver = new GraphQLScalarType({
  ...LibraryDateTimeISO.toConfig(),
  description: `${LibraryDateTimeISO.description} Impossible calendar values (30 February, hour 24, year 0000) are refused, never rolled over.`,
  parseValue: parseDateTimeISO,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING)
      throw new GraphQLError('DateTimeISO must be a string', { nodes: ast });
    return parseDateTimeISO(ast.value);
  },
});
