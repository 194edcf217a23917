import { ArrayType, Entity, Enum, Filter, ManyToOne, Property, type Ref } from '@mikro-orm/core';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver, Node } from '../common';
import { TenantEntity } from '../accounts';
import { Staff } from '../staff';

export enum OAuthProtocol {
  OAUTH1 = 'oauth1',
  OAUTH2 = 'oauth2',
}
registerEnumType(OAuthProtocol, {
  name: 'OAuthProtocol',
  description: 'OAUTH1: a 1.0a consumer (signed requests); OAUTH2: a 2.0 client (bearer tokens).',
  valuesConfig: {
    OAUTH1: { description: 'OAuth 1.0a: requests signed with the consumer and token secrets.' },
    OAUTH2: { description: 'OAuth 2.0: `Authorization: Bearer <access token>`.' },
  },
});

/** The filter that keeps the operator's applications out of an account's reads (on by default). */
export const ACCOUNT_APPLICATIONS_FILTER = 'accountApplications';

/**
 * An application registered to act for users who approve it. Table `oauth_clients`. The secret of a
 * 1.0a consumer is kept as issued (HMAC needs it); a 2.0 client keeps only a hash of its secret, and
 * a public 2.0 client (SPA, CLI) has none and uses PKCE.
 *
 * An account owner's application serves the users of that account only. One the operator registers
 * with the CLI (`oauth client create --every-account`) serves every account's: it is filed under the
 * account the operator named, but it is the operator's, so no account reads or revokes it (the
 * filter below; the CLI turns it off).
 */
@ObjectType('OAuthClient', {
  implements: Node,
  description: 'An application registered to use the API for the users who authorise it.',
})
@Entity({ tableName: 'oauth_clients' })
@Filter({
  name: ACCOUNT_APPLICATIONS_FILTER,
  cond: { servesEveryAccount: false },
  default: true,
})
export class OAuthClient extends TenantEntity<
  | 'redirectUris'
  | 'confidential'
  | 'registeredAt'
  | 'servesEveryAccount'
  | 'accessTokenLifetimeSeconds'
> {
  @Field(() => String, { description: 'The name users see when asked to authorise it.' })
  @Property({ type: 'string', length: 255 })
  name!: string;

  @Field(() => OAuthProtocol, { description: 'The OAuth version it speaks.' })
  @Enum({ items: () => OAuthProtocol })
  protocol!: OAuthProtocol;

  @Field(() => String, { name: 'key', description: 'The consumer key (1.0a) or client_id (2.0).' })
  @Property({ type: 'string', length: 64, fieldName: 'client_key' })
  clientKey!: string;

  @Property({ type: 'string', length: 128, nullable: true, hidden: true })
  secret: string | null = null;

  @Property({ type: 'string', length: 64, nullable: true, hidden: true })
  secretHash: string | null = null;

  @Field(() => [String], {
    description:
      "Where users may be sent back to; none: the service's own /oauth/authorized page (2.0) or any callback (1.0a).",
  })
  @Property({ type: ArrayType })
  redirectUris: string[] = [];

  // The owner who registered it, who is never deleted (operator's applications: none). No foreign
  // key: Citus refuses one with `on delete set null` (issue 38).
  @ManyToOne(() => Staff, { ref: true, nullable: true, createForeignKeyConstraint: false })
  createdBy: Ref<Staff> | null = null;

  @Field(() => Int, {
    nullable: true,
    description:
      'How long its access tokens last, in seconds; null: the defaults, 1 hour (with a refresh token) and 14 days from the implicit flow (which has none).',
  })
  @Property({ type: 'integer', nullable: true })
  accessTokenLifetimeSeconds: number | null = null;

  /** Whether users of every account may authorise it (the operator's), or only its account's. */
  @Property({ type: 'boolean' })
  servesEveryAccount = false;

  @Field(() => Boolean, {
    description: 'Whether the application holds a secret; public 2.0 clients use PKCE instead.',
  })
  get confidential(): boolean {
    return this.protocol === OAuthProtocol.OAUTH1 || this.secretHash !== null;
  }

  @Field(() => DateTimeISOResolver, {
    name: 'registeredAt',
    description: 'When it was registered.',
  })
  get registeredAt(): Date {
    return this.createdAt;
  }
}

@ObjectType('RegisterOAuthClientPayload', {
  description: 'What registering an application changed, with its secret, shown only here.',
})
export class RegisteredOAuthClient {
  @Field(() => OAuthClient, { description: 'The registered application.' })
  client!: OAuthClient;
  @Field(() => String, {
    nullable: true,
    description: 'The consumer or client secret; null for a public 2.0 client.',
  })
  secret!: string | null;
}

@ObjectType({
  description: 'An application the caller has authorised, with the tokens it holds for them.',
})
export class OAuthAuthorization {
  @Field(() => String, { description: "The application's key (client_id)." }) clientKey!: string;
  @Field(() => String, { description: "The application's name." }) clientName!: string;
  @Field(() => OAuthProtocol, { description: 'The OAuth version it speaks.' })
  protocol!: OAuthProtocol;
  @Field(() => DateTimeISOResolver, { description: 'When the newest of its tokens was issued.' })
  authorizedAt!: Date;
}
