import type { EntityManager } from '@mikro-orm/postgresql';
import type { Account } from '../accounts';
import { StaffType } from '../common';
import { Staff } from './staff.entity';
import { OutboxMessage, type EmailPayload } from '../outbox';

/**
 * A paid plan is one with a staff maximum: `accounts.staff_max` not null and > 0. Only there does
 * an active user count against what the account pays for, so only there is activating a user a
 * possible charge that the owner is asked to confirm. (No maximum is the free, unlimited plan;
 * 0 allows no staff at all.)
 */
export function isPaidPlan(account: Account): boolean {
  return account.staffMax !== null && account.staffMax > 0;
}

/** Why the owner hears from us: a user was created active, or an inactive one was enabled. */
export type ActivationReason = 'created' | 'enabled';

/**
 * Queues the owner's confirmation e-mail on `em`, which must be the transaction of the change, so
 * the e-mail exists exactly when the change commits (a refused or rolled-back change leaves none).
 * Does nothing off a paid plan.
 */
export async function enqueueConfirmationEmail(
  em: EntityManager,
  account: Account,
  member: Staff,
  reason: ActivationReason,
): Promise<void> {
  if (!isPaidPlan(account)) return;
  const owner = await em.findOneOrFail(Staff, { account: account.id, type: StaffType.OWNER });
  em.create(OutboxMessage, {
    account: account.id,
    kind: 'email',
    payload: confirmationEmail(account, owner, member, reason),
  });
}

/** The e-mail itself: plain text, to the owner, naming the user and the account. */
export function confirmationEmail(
  account: Account,
  owner: Staff,
  member: Staff,
  reason: ActivationReason,
): EmailPayload {
  const who = displayName(member);
  const accountName = oneLine(account.name);
  const happened =
    reason === 'created'
      ? `was added to your account "${accountName}"`
      : `was enabled on your account "${accountName}"`;
  return {
    // An owner without an address still gets a row: the sender's failure (last_error) is the trace.
    to: owner.emailAddress,
    subject: `Please confirm the new user ${who} on ${accountName}`,
    text: [
      `Hello ${displayName(owner)},`,
      '',
      `${who} (login "${oneLine(member.login)}") ${happened}.`,
      `Your plan counts up to ${account.staffMax} active users, so this new user may add a charge.`,
      '',
      'Please confirm the creation of this new user. If you did not expect it, sign in and',
      'disable the user.',
      '',
      '-- timetrack',
      '',
    ].join('\n'),
  };
}

function displayName(user: Staff): string {
  return oneLine(`${user.firstName} ${user.lastName}`) || oneLine(user.login);
}

/**
 * Names are free text (only NUL is refused): line breaks and other control characters must not
 * reach a header or break the layout of the body.
 */
function oneLine(text: string): string {
  return text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
}
