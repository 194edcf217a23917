/**
 * SQL as text with its parameters (`?` placeholders, in order), put together by concatenation so
 * that a parameter always travels with the text that holds its placeholder. What the compiled reads
 * write has no `?` of its own: keys are GraphQL names, literals are enum names and formats.
 */
export interface Sql {
  readonly text: string;
  readonly params: readonly unknown[];
}

export const raw = (text: string): Sql => ({ text, params: [] });

export const param = (value: unknown): Sql => ({ text: '?', params: [value] });

/** Text from a knex query or raw (`toSQL()`), whose placeholders are `?` too. */
export const fromKnex = (query: {
  readonly sql: string;
  readonly bindings: readonly unknown[];
}): Sql => ({ text: query.sql, params: query.bindings });

/** `sql\`select ${a} from t where ${b}\``: the parts' text in place, their parameters in order. */
export function sql(strings: TemplateStringsArray, ...parts: (Sql | string)[]): Sql {
  let text = strings[0]!;
  const params: unknown[] = [];
  parts.forEach((part, i) => {
    if (typeof part === 'string') text += part;
    else {
      text += part.text;
      params.push(...part.params);
    }
    text += strings[i + 1]!;
  });
  return { text, params };
}

export function join(parts: readonly Sql[], separator: string): Sql {
  return {
    text: parts.map((p) => p.text).join(separator),
    params: parts.flatMap((p) => p.params),
  };
}

/** A text literal: `'it''s'`. */
export const literal = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/**
 * A JSON object as text from its members' JSON texts, in order, written as JSON.stringify writes
 * it (no spaces), so the answer is the executor's to the byte.
 */
export function objectText(members: readonly (readonly [key: string, json: Sql])[]): Sql {
  if (members.length === 0) return raw(`'{}'`);
  const parts = members.flatMap(([key, json], i) => [
    raw(literal(`${i === 0 ? '{' : ','}${JSON.stringify(key)}:`)),
    json,
  ]);
  return join([...parts, raw(`'}'`)], ' || ');
}
