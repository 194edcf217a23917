import type { Knex } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../core/request-context';
import type { SqlCondition } from '../../rule-forms';

/**
 * The SQL forms of fields that are not declared columns (`@Declared` fields have theirs from the
 * declaration): a getter computed from the row's columns, or an object reached through one of the
 * row's references. Reads compiled to SQL (src/graphql/compiled-reads) select these instead of
 * resolving the field; a field with no SQL form makes its list run on the executor, so a field can
 * be slow but never wrong. Each form sits on the field it stands for, beside `@ReadsColumns`.
 */
export type SqlForm =
  | {
      readonly kind: 'expression';
      /** The value over the row; `column` gives the SQL of one of its properties' columns. */
      readonly sql: (column: (property: string) => string) => string;
    }
  | {
      readonly kind: 'reference';
      /** The reference property (`user` of a shift): the object is the row it points to. */
      readonly property: string;
      /**
       * Whether the caller may see the referenced row, over its integer id (an SQL expression):
       * the same rule the field's resolver applies; the field is null where it fails.
       */
      readonly visible?: (ctx: RequestContext, knex: Knex, id: string) => Promise<SqlCondition>;
    };

const formsOf = new Map<object, Map<string, SqlForm>>();

function declare(type: object, field: string, form: SqlForm): void {
  const forms = formsOf.get(type) ?? new Map<string, SqlForm>();
  forms.set(field, form);
  formsOf.set(type, forms);
}

/** The field's value is this SQL over its row (`@ComputedSql(Shift, (c) => `${c('stop')} is null`)`). */
export function ComputedSql<T>(
  type: abstract new () => T,
  sql: (column: (property: keyof T & string) => string) => string,
): MethodDecorator {
  return (_prototype, field) =>
    declare(type, String(field), {
      kind: 'expression',
      sql: sql as (c: (p: string) => string) => string,
    });
}

/** The field's object is the row `property` points to, where `visible` lets the caller see it. */
export function ReferenceSql<T>(
  type: abstract new () => T,
  property: keyof T & string,
  visible?: (ctx: RequestContext, knex: Knex, id: string) => Promise<SqlCondition>,
): MethodDecorator {
  return (_prototype, field) =>
    declare(type, String(field), { kind: 'reference', property, ...(visible ? { visible } : {}) });
}

/** The SQL form of a field of `type` (or of a parent class), if it has one. */
export function sqlFormOf(type: abstract new () => unknown, field: string): SqlForm | undefined {
  for (let t: unknown = type; typeof t === 'function' && t !== Function.prototype;) {
    const form = formsOf.get(t)?.get(field);
    if (form) return form;
    t = Object.getPrototypeOf(t);
  }
  return undefined;
}
