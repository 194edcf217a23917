import type { EntityClass, EntityManager } from '@mikro-orm/postgresql';
import { DomainRuleError, type EntityName } from '../../core/errors';
import { Staff } from './staff.entity';
import { isRowId, isUuid } from '../ids';

/**
 * Resolves the users named for a CUSTOM list (by uuid or integer id) within the caller's account.
 * A user who is not on the caller's staff list is USER_NOT_ALLOWED, whether they exist elsewhere
 * or not at all.
 */
export async function resolveMemberIds(
  em: EntityManager,
  entity: EntityName,
  userIds: string[] | null | undefined,
  userLegacyIds: number[] | null | undefined,
): Promise<number[] | undefined> {
  if (userIds == null && userLegacyIds == null) return undefined;
  const uuids = [...new Set((userIds ?? []).map((u) => u.toLowerCase()))];
  const ids = [...new Set(userLegacyIds ?? [])];
  const refuse = () => {
    throw new DomainRuleError(
      'USER_NOT_ALLOWED',
      entity,
      'A listed user is not in your staff list',
    );
  };
  if (uuids.some((u) => !isUuid(u)) || ids.some((i) => !isRowId(i))) refuse();
  if (uuids.length + ids.length > 1000) refuse();
  const found =
    uuids.length + ids.length === 0
      ? []
      : await em.find(
          Staff,
          { $or: [{ uuid: { $in: uuids } }, { id: { $in: ids } }] },
          { fields: ['id', 'uuid'] },
        );
  const foundUuids = new Set(found.map((s) => s.uuid));
  const foundIds = new Set(found.map((s) => s.id));
  if (uuids.some((u) => !foundUuids.has(u)) || ids.some((i) => !foundIds.has(i))) refuse();
  return [...foundIds];
}

/**
 * Replaces the CUSTOM list of a company or a project with the given users: `memberEntity` is the
 * list's join entity and `parentKey` its reference to the parent.
 */
export async function replaceMembers(
  em: EntityManager,
  accountId: number,
  memberEntity: EntityClass<object>,
  parentKey: 'company' | 'project',
  parent: { id: number },
  userIds: number[],
): Promise<void> {
  await em.nativeDelete(memberEntity, { [parentKey]: parent.id });
  // The join entities differ only in the name of their parent reference: MikroORM's
  // RequiredEntityData cannot check a computed key on an entity class the staff module cannot name.
  for (const user of userIds)
    em.create(memberEntity, { account: accountId, [parentKey]: parent, user } as never);
  await em.flush();
}
