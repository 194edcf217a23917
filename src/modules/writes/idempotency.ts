import { createHash } from 'node:crypto';
import type { FilterQuery } from '@mikro-orm/postgresql';
import stableStringify from 'safe-stable-stringify';
import {
  BadRequestError,
  NotFoundError,
  ValidationError,
  type EntityName,
} from '../../core/errors';
import type { RequestContext } from '../../core/request-context';
import { inTransaction } from './service-support';

/** A create or punch that an `Idempotency-Key` can make safe to retry. */
export interface IdempotentAct<T> {
  /** The mutation (`createShift`, `punchIn`, …): part of what a key stands for. */
  readonly name: string;
  /** Everything the client asked for. The same key with another request is refused. */
  readonly request: unknown;
  readonly entityClass: new () => T;
  readonly entity: EntityName;
}

/**
 * Runs `work` in one transaction, like inTransaction, and makes it idempotent when the request
 * carries an Idempotency-Key (IETF draft-ietf-httpapi-idempotency-key-header):
 *
 * - the first request with a key claims it, in the same transaction as its write, and records
 *   which record it answered with;
 * - a retry with the key and the same request writes nothing and answers with that record;
 * - a retry arriving while the first is still running waits for it: its claim waits on the first
 *   one's uncommitted row (PostgreSQL's unique index), then finds it committed. If the first fails,
 *   its claim rolls back with it and the retry does the work itself;
 * - the same key with a different request is refused (422), and a key is forgotten after
 *   `IDEMPOTENCY_TTL_S`.
 *
 * Keys belong to the user who sent them. A replay answers with the record as it is now, which is
 * the first answer unless someone has changed the record since.
 */
export async function idempotentTransaction<T extends { id: number }>(
  ctx: RequestContext,
  act: IdempotentAct<T>,
  work: (tx: RequestContext) => Promise<T>,
): Promise<T> {
  if (ctx.idempotencyKey === undefined) return inTransaction(ctx, work);
  const key = checkedKey(ctx.idempotencyKey);
  const requestHash = createHash('sha256')
    .update(stableStringify({ act: act.name, request: act.request }) ?? '')
    .digest('hex');
  return inTransaction(ctx, async (tx) => {
    const earlier = await claim(tx, key, requestHash);
    if (earlier !== undefined) {
      const record = await tx.em.findOne(act.entityClass, { id: earlier } as FilterQuery<T>);
      if (!record)
        throw new NotFoundError(
          act.entity,
          `${act.entity} created with this Idempotency-Key no longer exists`,
        );
      return record;
    }
    const record = await work(tx);
    await execute(
      tx,
      'update idempotency_keys set entity_id = ? where account_id = ? and user_id = ? and key = ?',
      [record.id, tx.viewer.accountId, tx.viewer.id, key],
    );
    return record;
  });
}

/**
 * Claims the key for this request, replacing a forgotten (expired) claim, and forgets the user's
 * other expired keys on the way. Returns undefined when the claim is new, or the record id an
 * earlier request with the same key and request answered with.
 *
 * A forgotten claim is replaced by an UPDATE of its own, not in the insert's ON CONFLICT: Citus
 * takes no function there (`now()`), and a key used again is rare.
 */
async function claim(
  tx: RequestContext,
  key: string,
  requestHash: string,
): Promise<number | undefined> {
  const ttl = tx.config.idempotencyTtlSeconds;
  const user = tx.viewer.id;
  const account = tx.viewer.accountId;
  const claimed = await execute(
    tx,
    `with forgotten as (
       delete from idempotency_keys where account_id = ? and user_id = ? and key <> ? and created_at < now() - make_interval(secs => ?)
     )
     insert into idempotency_keys (account_id, user_id, key, request_hash) values (?, ?, ?, ?)
     on conflict (user_id, key, account_id) do nothing
     returning 1`,
    [account, user, key, ttl, account, user, key, requestHash],
  );
  if (claimed.length > 0) return undefined;
  const renewed = await execute(
    tx,
    `update idempotency_keys set request_hash = ?, entity_id = null, created_at = now()
      where account_id = ? and user_id = ? and key = ? and created_at < now() - make_interval(secs => ?)
     returning 1`,
    [requestHash, account, user, key, ttl],
  );
  if (renewed.length > 0) return undefined;
  const [earlier] = await execute(
    tx,
    'select request_hash, entity_id from idempotency_keys where account_id = ? and user_id = ? and key = ?',
    [account, user, key],
  );
  if (earlier.request_hash !== requestHash) {
    throw ValidationError.field(
      undefined,
      'Idempotency-Key',
      'was already used for a different request; use a new key for each new request',
    );
  }
  return earlier.entity_id;
}

function execute(
  tx: RequestContext,
  sql: string,
  params: unknown[],
): Promise<{ request_hash: string; entity_id: number }[]> {
  return tx.em.getConnection().execute(sql, params, 'all', tx.em.getTransactionContext());
}

/**
 * A key is 1–255 visible ASCII characters; the draft's quoted form (`"abc"`, a structured-field
 * string) and a bare token (`abc`, as most clients send it) name the same key.
 */
function checkedKey(header: string): string {
  const key = /^"(.*)"$/.exec(header)?.[1] ?? header;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new BadRequestError(
      'Idempotency-Key must be 1 to 255 visible ASCII characters, such as a UUID',
    );
  }
  return key;
}
