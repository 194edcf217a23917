import type { Knex } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../core/request-context';
import { classChain } from '../../common';
import type { SqlCondition } from '../../rule-forms';

/**
 * The SQL forms of fields that are not declared columns (`@Declared` fields have theirs from the
 * declaration): a value computed over the row, an object reached through one of the row's
 * references, or the rows of another table that point to it. Reads compiled to SQL
 * (src/graphql/compiled-reads) select these instead of resolving the field; a field with no SQL
 * form makes its list run on the executor, so a field can be slow but never wrong. Each form sits
 * on the field it stands for, beside `@ReadsColumns`, and must answer what the resolver answers.
 */
export type SqlForm =
  | { readonly kind: 'expression'; readonly sql: SqlOverRow }
  | {
      readonly kind: 'reference';
      /** The reference property (`user` of a shift): the object is the row it points to. */
      readonly property: string;
      /**
       * Whether the caller may see the referenced row, over its integer id (an SQL expression):
       * the same rule the field's resolver applies; the field is null where it fails.
       */
      readonly visible?: (ctx: RequestContext, knex: Knex, id: string) => Promise<SqlCondition>;
    }
  | {
      readonly kind: 'rows';
      readonly entity: () => abstract new () => unknown;
      /**
       * Which of the entity's rows belong to the field over its parent row: for a list field, in
       * `order` (an ORDER BY list); for an object field, the one row.
       */
      readonly where: (parent: SqlRow, row: SqlRow) => string;
      readonly order?: (parent: SqlRow, row: SqlRow) => string;
    };

/**
 * SQL over a row: `column` gives the SQL of one of its properties' columns, `param` a placeholder
 * for a value of the request (`request`: the caller's id and account, the request's instant).
 * Every other table a form reads names the account (`account_id = ${request.accountId}`), as the
 * compiled reads do for the row's own table: on Citus that keeps the read on one worker.
 */
export type SqlOverRow = (row: SqlRow) => string;

export interface SqlRow {
  column(property: string): string;
  param(value: unknown): string;
  /**
   * Values computed once per row however many fields read them: `select` (a select list over
   * the row, `grand`, `mine`) runs as a LATERAL subquery named by `key`; the answer is its alias,
   * for `${alias}."grand"`.
   */
  lateral(key: string, select: (row: SqlRow) => string): string;
  readonly request: { readonly viewerId: number; readonly accountId: number; readonly now: Date };
}

const formsOf = new Map<object, Map<string, SqlForm>>();

function declare(type: object, field: string | symbol, form: SqlForm): void {
  const forms = formsOf.get(type) ?? new Map<string, SqlForm>();
  forms.set(String(field), form);
  formsOf.set(type, forms);
}

/** The field's value is this SQL over its row (`@ComputedSql(Shift, (r) => `${r.column('stop')} is null`)`). */
export function ComputedSql<T>(
  type: abstract new () => T,
  sql: (row: SqlRow & { column(property: keyof T & string): string }) => string,
): MethodDecorator {
  return (_prototype, field) =>
    declare(type, field, { kind: 'expression', sql: sql as SqlOverRow });
}

/** The field's object is the row `property` points to, where `visible` lets the caller see it. */
export function ReferenceSql<T>(
  type: abstract new () => T,
  property: keyof T & string,
  visible?: (ctx: RequestContext, knex: Knex, id: string) => Promise<SqlCondition>,
): MethodDecorator {
  return (_prototype, field) =>
    declare(type, field, { kind: 'reference', property, ...(visible ? { visible } : {}) });
}

type Rows<P, T> = (
  parent: SqlRow & { column(property: keyof P & string): string },
  row: SqlRow & { column(property: keyof T & string): string },
) => string;

/**
 * The field's list (in `order`), or its one object, is the rows of `entity` that `where` picks over
 * the parent row: `@RowsSql(Project, () => Activity, (p, a) => `${a.column('project')} =
 * ${p.column('id')}`, (p, a) => `${a.column('name')}, ${a.column('id')}`)`.
 */
export function RowsSql<P, T>(
  type: abstract new () => P,
  entity: () => abstract new () => T,
  where: Rows<P, T>,
  order?: Rows<P, T>,
): MethodDecorator {
  return (_prototype, field) =>
    declare(type, field, {
      kind: 'rows',
      entity,
      where: where as (parent: SqlRow, row: SqlRow) => string,
      ...(order ? { order: order as (parent: SqlRow, row: SqlRow) => string } : {}),
    });
}

/** The SQL form of a field of `type` (or of a parent class), if it has one. */
export function sqlFormOf(type: abstract new () => unknown, field: string): SqlForm | undefined {
  // The class's own form before a parent's.
  return classChain(type)
    .map((t) => formsOf.get(t)?.get(field))
    .findLast((form) => form !== undefined);
}
