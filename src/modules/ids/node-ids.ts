import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from './identifiers';

/**
 * The stored types that GraphQL addresses by `id` (the `Node` interface), with the table that
 * holds each one's rows.
 *
 * Ids are unique across these types: every id is a version 4 UUID (`randomUUID()` in the
 * service, `gen_random_uuid()` as the columns' default), and an id a client chooses on create
 * must be free in every one of these tables (`assertUuidFree`). So the id alone names the type,
 * which is how `node(id:)` finds it, in one statement for any number of ids.
 *
 * This is the one place that knows the tables of the modules above; a new stored type that
 * implements `Node` adds its line here.
 */
export const NODE_TABLES = {
  Account: 'accounts',
  Staff: 'users',
  Company: 'companies',
  Project: 'projects',
  Activity: 'activities',
  Shift: 'shifts',
  Webhook: 'webhooks',
  // Outbox rows of other kinds (e-mails) are no objects of the API.
  WebhookDelivery: "outbox where kind = 'webhook'",
  OAuthClient: 'oauth_clients',
} as const;

export type NodeTypeName = keyof typeof NODE_TABLES;

/** Where `nodeTypesOf` looks: one account's rows, or the whole service's. */
export type NodeScope = { readonly accountId: number } | 'every account';

/**
 * The type of each id that names a row of `scope`. One UNION ALL over the tables' unique uuid
 * indexes. `node(id:)` looks in the caller's account only, so another account's id is no more
 * found, and costs no more, than an id that names nothing; a new client-chosen id must be free in
 * the whole service.
 */
export async function nodeTypesOf(
  em: EntityManager,
  ids: readonly string[],
  scope: NodeScope,
): Promise<Map<string, NodeTypeName>> {
  const uuids = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  const types = new Map<string, NodeTypeName>();
  if (uuids.length === 0) return types;
  const params: unknown[] = [];
  const sql = Object.entries(NODE_TABLES)
    .map(([type, from]) => {
      const [table, condition] = from.split(' where ');
      const conditions = ['uuid = any(?::uuid[])'];
      params.push(`{${uuids.join(',')}}`);
      if (condition) conditions.push(condition);
      if (scope !== 'every account') {
        // An account is its own tenant: its key is `id`; every other table's is `account_id`.
        conditions.push(`${table === 'accounts' ? 'id' : 'account_id'} = ?`);
        params.push(scope.accountId);
      }
      return `select '${type}' as type, uuid::text as id from ${table} where ${conditions.join(' and ')}`;
    })
    .join(' union all ');
  const rows = await em
    .getConnection()
    .execute<{ type: NodeTypeName; id: string }[]>(sql, params, 'all', em.getTransactionContext());
  for (const row of rows) types.set(row.id, row.type);
  return types;
}
