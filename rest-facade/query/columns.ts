/**
 * The column table of one legacy resource: which JSON fields a `where`/`order` expression may name,
 * and how each maps onto the GraphQL filter and order inputs. Only the columns listed here are ever
 * reachable from a query string, so the table is the allowlist.
 */

export type ColumnType =
  | 'string' // GraphQL StringFilter: eq ne lt lte gt gte like in isNull
  | 'integer' // IntFilter: eq ne lt lte gt gte in isNull (an int32; a quoted numeric string like "100" too)
  | 'float' // FloatFilter: eq ne lt lte gt gte isNull
  | 'boolean' // BooleanFilter: eq ne isNull; accepts true/false and the strings "true"/"false"
  | 'string-boolean' // BooleanFilter for legacy fields whose wire value is the STRING "true"/"false"
  | 'timestamp' // DateTimeFilter: eq ne lt lte gt gte isNull; value must be a quoted RFC 3339 string
  | 'uuid' // IDFilter: eq ne isNull (in also exists); a quoted or bare UUID, lower-cased
  | { readonly enum: Readonly<Record<string, string>> }; // wire value (case-insensitive) → GraphQL enum value; eq ne only

/** `Order` is the resource's generated order enum, so a table cannot name a value GraphQL lacks. */
export interface ColumnSpec<Order extends string = string> {
  /** The field of the GraphQL filter input, e.g. 'lastName'. */
  readonly filter: string;
  readonly type: ColumnType;
  /** The GraphQL order enum value, e.g. 'LAST_NAME'; columns without it cannot be ordered by. */
  readonly order?: Order;
}

/** Keyed by the legacy JSON column name, e.g. last_name. */
export type ColumnTable<Order extends string = string> = Readonly<
  Record<string, ColumnSpec<Order>>
>;

/**
 * Looks a column up by its own keys only: a plain `columns[name]` would let `constructor` or
 * `__proto__` reach Object.prototype and slip past the allowlist.
 */
export function lookupColumn<Order extends string>(
  columns: ColumnTable<Order>,
  name: string,
): ColumnSpec<Order> | undefined {
  return Object.hasOwn(columns, name) ? columns[name] : undefined;
}
