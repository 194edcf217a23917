import {
  Arg,
  Ctx,
  Field,
  ID,
  InputType,
  Int,
  Mutation,
  ObjectType,
  Query,
  Resolver,
} from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import {
  OAuthAuthorization,
  OAuthClient,
  OAuthProtocol,
  RegisteredOAuthClient,
} from '../oauth-client.entity';
import type { OAuthClientService, RegisterOAuthClientInput } from '../oauth-client.service';
import { listComplexity } from '../../paging/graphql';

@InputType('RegisterOAuthClientInput', { description: 'An application to register.' })
export class RegisterOAuthClientArgs implements RegisterOAuthClientInput {
  @Field(() => String, {
    description: 'The name users see when asked to authorise it; not blank.',
  })
  name!: string;
  @Field(() => OAuthProtocol, { description: 'The OAuth version it speaks.' })
  protocol!: OAuthProtocol;
  @Field(() => [String], {
    nullable: true,
    description: '2.0: the allowed redirect_uri values; 1.0a: the allowed oauth_callback values.',
  })
  redirectUris?: string[] | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Default true. false registers a public 2.0 client (no secret; PKCE required).',
  })
  confidential?: boolean | null;
  // Kept so that a client still sending it gets a VALIDATION_FAILED error naming the field, not a
  // schema error: a chosen key named the application to users of every account (attack findings,
  // item 3), so only the operator chooses one, with the CLI.
  @Field(() => String, {
    nullable: true,
    description:
      "Refused when set (VALIDATION_FAILED on `clientId`): an account's application always gets a generated key. A key chosen for a client whose id is fixed in its code is the operator's to register, with `timetrack oauth client create --every-account --client-id`.",
    deprecationReason:
      'Only the operator chooses a key (timetrack oauth client create --every-account --client-id); leave it out.',
  })
  clientId?: string | null;
  @Field(() => Int, {
    nullable: true,
    description:
      'OAuth 2.0 only: how long its access tokens last, in seconds (60 to 315360000, ten years); leave it out for the defaults: 1 hour with a refresh token, 14 days from the implicit flow. A long lifetime spares a tool without refresh tokens from signing in again, and leaves a leaked token usable as long: revoke it (`revokeOAuthAuthorization`, `revokeOAuthClient`) when in doubt.',
  })
  accessTokenLifetimeSeconds?: number | null;
}

@InputType({ description: 'Deletes an application and every token it holds (owner only).' })
export class RevokeOAuthClientInput {
  @Field(() => ID, { description: 'The application (its `id`).' })
  clientId!: string;
}

@ObjectType({ description: 'What revoking an application changed: its tokens are gone.' })
export class RevokeOAuthClientPayload {
  @Field(() => ID, {
    description: 'The id of the deleted application: remove it from a client cache.',
  })
  revokedClientId!: string;
  @Field(() => OAuthClient, { description: 'The application as it was before the deletion.' })
  client!: OAuthClient;
}

@InputType({ description: "Withdraws the caller's authorisation of an application." })
export class RevokeOAuthAuthorizationInput {
  @Field(() => String, {
    description: "The application's key (client_id), as `oauthAuthorizations` lists it.",
  })
  clientKey!: string;
}

@ObjectType({ description: 'What withdrawing an authorisation changed.' })
export class RevokeOAuthAuthorizationPayload {
  @Field(() => String, { description: "The application's key." })
  clientKey!: string;
  @Field(() => Boolean, {
    description: 'True when an authorisation was withdrawn; false when the caller had none.',
  })
  revoked!: boolean;
}

@Resolver(() => OAuthClient)
export class OAuthClientResolver {
  constructor(private readonly service: OAuthClientService) {}

  @Query(() => [OAuthClient], {
    nullable: true,
    description:
      "The account's registered applications (owner only); the operator's applications for every account are not among them.",
    complexity: listComplexity(10),
  })
  oauthClients(@Ctx() ctx: RequestContext): Promise<OAuthClient[]> {
    return this.service.list(ctx);
  }

  @Query(() => [OAuthAuthorization], {
    description: 'The applications the caller has authorised.',
    complexity: listComplexity(10),
  })
  oauthAuthorizations(@Ctx() ctx: RequestContext): Promise<OAuthAuthorization[]> {
    return this.service.authorizations(ctx);
  }

  @Mutation(() => RegisteredOAuthClient, {
    description:
      "Registers an application of the account (owner only), which only the account's users may authorise; its secret is shown only here.",
  })
  registerOAuthClient(
    @Arg('input', () => RegisterOAuthClientArgs, { description: 'The application.' })
    input: RegisterOAuthClientArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<RegisteredOAuthClient> {
    return this.service.register(ctx, input);
  }

  @Mutation(() => RevokeOAuthClientPayload, {
    description: 'Deletes an application and every token it holds (owner only).',
  })
  async revokeOAuthClient(
    @Arg('input', () => RevokeOAuthClientInput, { description: 'The application.' })
    { clientId }: RevokeOAuthClientInput,
    @Ctx() ctx: RequestContext,
  ): Promise<RevokeOAuthClientPayload> {
    const client = await this.service.revoke(ctx, clientId);
    return { revokedClientId: client.uuid, client };
  }

  @Mutation(() => RevokeOAuthAuthorizationPayload, {
    description:
      "Withdraws the caller's authorisation of an application: its tokens for the caller stop working.",
  })
  async revokeOAuthAuthorization(
    @Arg('input', () => RevokeOAuthAuthorizationInput, { description: 'The application.' })
    { clientKey }: RevokeOAuthAuthorizationInput,
    @Ctx() ctx: RequestContext,
  ): Promise<RevokeOAuthAuthorizationPayload> {
    return { clientKey, revoked: await this.service.revokeAuthorization(ctx, clientKey) };
  }
}
