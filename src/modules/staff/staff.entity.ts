import { Entity, Enum, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { z } from 'zod';
import { Declared, Node, StaffType } from '../common';
import { timeZoneField } from '../../core/zone-names';
import { fields } from '../writes';
import { TenantEntity } from '../accounts';
import { COSTS_RULE, PERSONAL_RULE, STAFF_RATE_RULE } from './staff-read.policy';

/** A user of an account: its owner, a manager or a staff member. Table `users`. */
@ObjectType('Staff', {
  implements: Node,
  description: 'A user of the account: the owner, a manager or a staff member.',
})
@Entity({ tableName: 'users' })
export class Staff extends TenantEntity<
  'firstName' | 'lastName' | 'emailAddress' | 'timeZone' | 'active' | 'type'
> {
  @Field(() => String, {
    nullable: true,
    description:
      'The login; unique across the whole service. Null for a caller who may not read the user (a staff member reading a colleague or the owner), like `emailAddress` and `hourlyRateCents`.',
  })
  @Property({ type: 'string', length: 255 })
  @Declared({
    filter: 'The login (a staff member sees only their own record anyway).',
    order: 'LOGIN',
    read: PERSONAL_RULE,
    input: fields
      .requiredText(255)
      .refine(
        (s) => !s.includes(':'),
        'must not contain ":" (it separates login and password in Basic auth)',
      ),
    legacy: { json: 'login', xml: 'username', always: true },
  })
  login!: string;

  /** argon2id; never exposed. */
  @Property({ type: 'string', length: 255, hidden: true, lazy: false })
  passwordHash!: string;

  @Field(() => String, { description: 'First name; empty when not given.' })
  @Property({ type: 'string', length: 255 })
  @Declared({
    filter: 'The first name.',
    order: 'FIRST_NAME',
    input: fields.text(),
    legacy: { json: 'first_name', xml: true },
  })
  firstName: string = '';

  @Field(() => String, { description: 'Last name; empty when not given.' })
  @Property({ type: 'string', length: 255 })
  @Declared({
    filter: 'The last name.',
    order: 'LAST_NAME',
    input: fields.text(),
    legacy: { json: 'last_name', xml: true },
  })
  lastName: string = '';

  @Field(() => String, {
    nullable: true,
    description:
      'The e-mail address. Null for a caller who may not read the user (a staff member reading a colleague or the owner).',
  })
  @Property({ type: 'string', length: 255 })
  @Declared({
    filter: 'The e-mail address.',
    order: 'EMAIL_ADDRESS',
    read: PERSONAL_RULE,
    input: fields
      .text()
      .refine((s) => s === '' || /^[^\s@]+@[^\s@]+$/.test(s), 'is not an e-mail address'),
    legacy: { json: 'email_address', xml: true, always: true },
  })
  emailAddress: string = '';

  @Field(() => Boolean, {
    description:
      'False for a disabled user, who cannot sign in; only active users count towards `staffMax`.',
  })
  @Property({ type: 'boolean' })
  @Declared({
    filter: 'Whether the user is enabled.',
    order: 'ACTIVE',
    input: z.boolean(),
    legacy: { json: 'active', xml: true, as: 'string-boolean' },
  })
  active: boolean = true;

  // The legacy XML user has `active` before `time_zone`: the declarations keep the wire's order.
  @Field(() => String, {
    description:
      "The user's IANA time zone name: new shifts and reports use it when none is given.",
  })
  @Property({ type: 'string', length: 64 })
  @Declared({
    filter: "The user's IANA time zone name.",
    order: 'TIME_ZONE',
    input: timeZoneField(),
    legacy: { json: 'time_zone', xml: true },
  })
  timeZone: string = 'UTC';

  @Field(() => StaffType, { description: "The user's role." })
  @Enum({ items: () => StaffType })
  @Declared({
    filter: true,
    order: 'TYPE',
    // The owner is made with the account: a create or update gives one of the others.
    input: z.enum([StaffType.MANAGER, StaffType.STAFF]),
    legacy: { json: 'type' },
  })
  type: StaffType = StaffType.STAFF;

  @Field(() => Int, {
    nullable: true,
    description:
      "The user's hourly rate in cents, used for shifts on projects without a rate; null when not set, for a caller who may not read the user, or for a staff member while the account keeps money from staff (`Account.staffSeeMoney`).",
  })
  @Property({ type: 'integer', nullable: true })
  @Declared({
    filter: "The user's hourly rate in cents.",
    order: 'HOURLY_RATE_CENTS',
    read: STAFF_RATE_RULE,
    input: fields.cents().nullable(),
    legacy: { json: 'hourly_rate_cents' },
  })
  hourlyRateCents: number | null = null;

  @Field(() => Int, {
    nullable: true,
    description:
      "What an hour of the user's work costs the account, in cents: a report's `costCents`. Null when not set, or for a caller who may not read money (a staff member, themself included).",
  })
  @Property({ type: 'integer', nullable: true })
  @Declared({ read: COSTS_RULE, input: fields.cents().nullable() })
  costRateCents: number | null = null;
}
