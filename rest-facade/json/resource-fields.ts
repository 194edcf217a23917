import type { ColumnTable, ColumnType } from '../query/columns';
import type { InputField, InputTable } from './input-fields';

/**
 * One field of a JSON resource as clients write and query it, written once: the GraphQL input
 * field it fills (`to`, which is also its field in the GraphQL filter) and, when `where` and
 * `order` may name it, its column type and its value of the generated order enum `Order`.
 */
export interface ResourceField<Order extends string> extends InputField {
  readonly column?: { readonly type: ColumnType; readonly order: Order };
}

/** The writable and queryable fields of a resource, by wire name, in the order of the wire. */
export type ResourceFields<Order extends string> = Readonly<Record<string, ResourceField<Order>>>;

/**
 * The input tables and the column table of a resource from its one field table, each in the
 * table's order (the order of OpenAPI properties, of field errors and of the `where` help).
 * `uuid`, a client-chosen id, is written on create only.
 */
export function resourceTables<Order extends string>(
  uuid: ResourceField<Order>,
  fields: ResourceFields<Order>,
): {
  readonly createFields: InputTable;
  readonly updateFields: InputTable;
  readonly columns: ColumnTable<Order>;
} {
  const updateFields = inputs(fields);
  const all = { uuid, ...fields };
  return {
    createFields: { ...inputs({ uuid }), ...updateFields },
    updateFields,
    columns: Object.fromEntries(
      Object.entries(all).flatMap(([name, { to, column }]) =>
        column ? [[name, { filter: to, type: column.type, order: column.order }]] : [],
      ),
    ),
  };
}

function inputs<Order extends string>(fields: ResourceFields<Order>): InputTable {
  return Object.fromEntries(
    Object.entries(fields).map(([name, { to, kind }]) => [name, { to, kind }]),
  );
}
