import { Field, InputType } from 'type-graphql';
import type { ShiftEventKind } from '../../shifts';
import { ShiftEventKindEnum } from '../../events';

@InputType({ description: 'A webhook to register.' })
export class CreateWebhookInput {
  @Field(() => String, { description: 'An absolute http(s) URL.' })
  url!: string;

  @Field(() => [ShiftEventKindEnum], { description: 'The events to send; at least one.' })
  eventKinds!: ShiftEventKind[];

  @Field(() => String, {
    nullable: true,
    description: 'A note on what it is for, at most 255 characters.',
  })
  description?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Default true.' })
  active?: boolean | null;
}

@InputType({ description: 'Omitted fields keep their value.' })
export class UpdateWebhookInput {
  @Field(() => String, {
    nullable: true,
    description: 'An absolute http(s) URL; null keeps the stored one.',
  })
  url?: string | null;

  @Field(() => [ShiftEventKindEnum], {
    nullable: true,
    description: 'The events to send, at least one; null keeps the stored ones.',
  })
  eventKinds?: ShiftEventKind[] | null;

  @Field(() => String, {
    nullable: true,
    description: 'A note on what it is for, at most 255 characters; null clears it.',
  })
  description?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'An inactive webhook gets no new deliveries; null keeps the stored value.',
  })
  active?: boolean | null;
}
