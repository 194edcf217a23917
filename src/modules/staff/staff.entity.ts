import { Entity, Enum, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { Node, StaffType } from '../common';
import { TenantEntity } from '../accounts';

/** A user of an account: its owner, a manager or a staff member. Table `users`. */
@ObjectType('Staff', {
  implements: Node,
  description: 'A user of the account: the owner, a manager or a staff member.',
})
@Entity({ tableName: 'users' })
export class Staff extends TenantEntity<
  'firstName' | 'lastName' | 'emailAddress' | 'timeZone' | 'active' | 'type'
> {
  // The login, e-mail address and rate are personal: StaffResolver exposes them under the staff
  // policy's field rule (personalField).
  @Property({ type: 'string', length: 255 })
  login!: string;

  /** argon2id; never exposed. */
  @Property({ type: 'string', length: 255, hidden: true, lazy: false })
  passwordHash!: string;

  @Field(() => String, { description: 'First name; empty when not given.' })
  @Property({ type: 'string', length: 255 })
  firstName: string = '';

  @Field(() => String, { description: 'Last name; empty when not given.' })
  @Property({ type: 'string', length: 255 })
  lastName: string = '';

  @Property({ type: 'string', length: 255 })
  emailAddress: string = '';

  @Field(() => String, {
    description:
      "The user's IANA time zone name: new shifts and reports use it when none is given.",
  })
  @Property({ type: 'string', length: 64 })
  timeZone: string = 'UTC';

  @Field(() => Boolean, {
    description:
      'False for a disabled user, who cannot sign in; only active users count towards `staffMax`.',
  })
  @Property({ type: 'boolean' })
  active: boolean = true;

  @Field(() => StaffType, { description: "The user's role." })
  @Enum({ items: () => StaffType })
  type: StaffType = StaffType.STAFF;

  @Property({ type: 'integer', nullable: true })
  hourlyRateCents: number | null = null;

  /** What an hour of the user's work costs the account (wage and overhead), for profit. */
  @Property({ type: 'integer', nullable: true })
  costRateCents: number | null = null;
}
