/**
 * How an in-process caller that writes its own text of a list's nodes (the facade's legacy JSON
 * and XML) has a read compiled to SQL write them straight from the rows: it names the fields of
 * the node it reads, and writes a node from a reader of them and a list from its nodes' texts.
 * The caller alone knows its format; the compiled read knows only the fields.
 */
export interface NodeWriter {
  /** The node's fields it reads, by the response keys of the operation's selection. */
  readonly fields: readonly string[];
  node(read: FieldReader): string;
  list(nodes: readonly string[]): string;
}

/** A node's fields, by response key: a field's value, or that value as JSON text. */
export interface FieldReader {
  value(field: string): unknown;
  json(field: string): string;
}

/** A list already written by the caller's `NodeWriter`: its text, of `length` nodes. */
export class WrittenNodes {
  constructor(
    readonly text: string,
    readonly length: number,
  ) {}
}
