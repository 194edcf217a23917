import type { FilterQuery } from '@mikro-orm/postgresql';
import type { Knex } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/request-context';

/**
 * The forms a policy rule takes. Services and loaders filter with a MikroORM where-object, the
 * report's hand-written statement with an SQL condition, and a subscription decides about a row it
 * already holds. A policy writes its rule once against `RuleForm` and runs it in each form, so
 * the forms cannot drift apart.
 */
export interface RuleForm<C> {
  /** The condition every row meets. */
  always(): C;
  /**
   * Met where one of the conditions is. A null condition is met nowhere (a CUSTOM list naming
   * nobody); a function is called only when the conditions before it leave the answer open.
   */
  anyOf(first: C, ...more: Lazy<C | null>[]): Promise<C>;
}

export type Lazy<C> = C | (() => Promise<C>);

/**
 * The conditions of `anyOf` that matter, in order, each made only while the answer is open;
 * undefined as soon as one is met by every row.
 */
async function disjuncts<C>(
  first: C,
  more: readonly Lazy<C | null>[],
  metByEveryRow: (condition: C) => boolean,
): Promise<C[] | undefined> {
  if (metByEveryRow(first)) return undefined;
  const conditions = [first];
  for (const lazy of more) {
    const condition = typeof lazy === 'function' ? await (lazy as () => Promise<C | null>)() : lazy;
    if (condition === null) continue;
    if (metByEveryRow(condition)) return undefined;
    conditions.push(condition);
  }
  return conditions;
}

const isEveryRow = (where: object) => Object.keys(where).length === 0;

/** A MikroORM where-object; `{}` is every row. */
export const WHERE_FORM: RuleForm<object> = {
  always: () => ({}),
  async anyOf(first, ...more) {
    const conditions = await disjuncts(first, more, isEveryRow);
    if (!conditions) return {};
    return conditions.length === 1 ? first : { $or: conditions };
  },
};

/** Whether a row the caller already holds meets the rule. */
export const TEST_FORM: RuleForm<boolean> = {
  always: () => true,
  anyOf: async (first, ...more) => !(await disjuncts(first, more, (met) => met)),
};

/**
 * An SQL condition, boxed because a Knex.Raw is a thenable that awaiting would run; undefined
 * when every row meets it, so a statement carries no condition at all.
 */
export type SqlCondition = { readonly condition: Knex.Raw } | undefined;

export function sqlForm(knex: Knex): RuleForm<SqlCondition> {
  return {
    always: () => undefined,
    async anyOf(first, ...more) {
      const conditions = await disjuncts(first, more, (sql) => sql === undefined);
      if (!conditions) return undefined;
      return {
        condition: knex.raw(
          `(${conditions.map(() => '?').join(' or ')})`,
          conditions.map((sql) => sql!.condition),
        ),
      };
    },
  };
}

/**
 * A where-object of an entity as the SQL condition `<column> in (the ids it selects)`, scoped to
 * the caller's account because a query builder applies no filters.
 */
export function whereAsSql<T extends object>(
  ctx: RequestContext,
  knex: Knex,
  entity: new () => T,
  column: string,
  where: FilterQuery<T>,
): SqlCondition {
  if (isEveryRow(where)) return undefined;
  const { sql, bindings } = ctx.em
    .createQueryBuilder(entity, 'v')
    .select('v.id')
    .where({ $and: [where, { account: ctx.viewer.accountId }] })
    .getKnexQuery()
    .toSQL();
  return {
    condition: knex.raw(`${column} in (?)`, [knex.raw(sql, bindings as Knex.RawBinding[])]),
  };
}
