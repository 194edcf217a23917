import {
  PostgreSqlDriver,
  Utils,
  type DeleteOptions,
  type EntityDictionary,
  type FilterQuery,
  type NativeInsertUpdateOptions,
  type QueryResult,
  type UpsertOptions,
} from '@mikro-orm/postgresql';
import { transactionAccount } from '../core/request-context';

/**
 * The ORM's driver, whose updates and deletes of a tenant's row name its account as well as its
 * id when they run in a transaction filed under the account (a request's: inTransaction). The unit
 * of work writes a changed or removed entity by its primary key alone, which on Citus is a
 * statement sent to every shard; with the account it is sent to the one that holds the row
 * (docs/scaling.md). A transaction of one account writes only that account's rows, so the extra
 * condition changes nothing on PostgreSQL.
 *
 * Batched updates (one statement of many rows by their keys) are off in orm-options.ts: the
 * driver writes their keys itself, without a place for the account.
 */
export class TenantPostgreSqlDriver extends PostgreSqlDriver {
  override nativeUpdate<T extends object>(
    entityName: string,
    where: FilterQuery<T>,
    data: EntityDictionary<T>,
    options: NativeInsertUpdateOptions<T> & UpsertOptions<T> = {},
  ): Promise<QueryResult<T>> {
    return super.nativeUpdate(
      entityName,
      this.inAccount(entityName, where, options.ctx),
      data,
      options,
    );
  }

  override nativeDelete<T extends object>(
    entityName: string,
    where: FilterQuery<T>,
    options: DeleteOptions<T> = {},
  ): Promise<QueryResult<T>> {
    return super.nativeDelete(entityName, this.inAccount(entityName, where, options.ctx), options);
  }

  /** `where` and the account of the transaction, for an entity of an account (`account`). */
  private inAccount<T>(entityName: string, where: FilterQuery<T>, ctx: unknown): FilterQuery<T> {
    const accountId = transactionAccount(ctx);
    const meta = this.metadata.find(entityName);
    if (accountId === undefined || !meta?.properties['account' as never]) return where;
    const condition = Utils.isPrimaryKey(where) ? { [meta.primaryKeys[0]!]: where } : where;
    if (!Utils.isPlainObject(condition) || 'account' in condition) return where;
    return { ...condition, account: accountId } as FilterQuery<T>;
  }
}
