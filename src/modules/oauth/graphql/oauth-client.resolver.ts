import { Arg, Ctx, Field, ID, InputType, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import {
  OAuthAuthorization,
  OAuthClient,
  OAuthProtocol,
  RegisteredOAuthClient,
} from '../oauth-client.entity';
import type { OAuthClientService, RegisterOAuthClientInput } from '../oauth-client.service';
import { listComplexity } from '../../common';

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
  @Field(() => String, {
    nullable: true,
    description:
      'The key (client_id or consumer key) to use instead of a generated one, for a client whose id is fixed in its code. 8-64 characters of A-Z a-z 0-9 . _ ~ -; unique across the service.',
  })
  clientId?: string | null;
}

@Resolver(() => OAuthClient)
export class OAuthClientResolver {
  constructor(private readonly service: OAuthClientService) {}

  @Query(() => [OAuthClient], {
    nullable: true,
    description: "The account's registered applications (owner only).",
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
    description: 'Registers an application (owner only); its secret is shown only here.',
  })
  registerOAuthClient(
    @Arg('input', () => RegisterOAuthClientArgs, { description: 'The application.' })
    input: RegisterOAuthClientArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<RegisteredOAuthClient> {
    return this.service.register(ctx, input);
  }

  @Mutation(() => OAuthClient, {
    description: 'Deletes an application and every token it holds (owner only).',
  })
  revokeOAuthClient(
    @Arg('id', () => ID, { description: 'The application (its `id`).' }) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<OAuthClient> {
    return this.service.revoke(ctx, id);
  }

  @Mutation(() => Boolean, {
    description:
      "Withdraws the caller's authorisation of an application: its tokens for the caller stop working.",
  })
  revokeOAuthAuthorization(
    @Arg('clientKey', () => String, {
      description: "The application's key (client_id), as `oauthAuthorizations` lists it.",
    })
    clientKey: string,
    @Ctx() ctx: RequestContext,
  ): Promise<boolean> {
    return this.service.revokeAuthorization(ctx, clientKey);
  }
}
