import { Field, InputType } from 'type-graphql';
import type { ShiftEventKind } from '../../shifts';
import { ShiftEventKindEnum } from '../../events';

@InputType({ description: 'A webhook to register.' })
export class CreateWebhookInput {
  @Field(() => String, { description: 'An absolute http(s) URL.' })
  url!: string;

  @Field(() => [ShiftEventKindEnum], { description: 'The events to send; at least one.' })
  eventKinds!: ShiftEventKind[];

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Default true.' })
  active?: boolean | null;
}

@InputType({ description: 'Omitted fields keep their value.' })
export class UpdateWebhookInput {
  @Field(() => String, { nullable: true })
  url?: string | null;

  @Field(() => [ShiftEventKindEnum], { nullable: true })
  eventKinds?: ShiftEventKind[] | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => Boolean, { nullable: true })
  active?: boolean | null;
}
