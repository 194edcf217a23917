import { Field, Float, InputType } from 'type-graphql';

@InputType('UpdateAccountInput', {
  description:
    "Changes the account's settings (owner only). Omitted fields keep their value; plan limits are set by the operator, not here.",
})
export class AccountInput {
  @Field(() => String, { nullable: true, description: "The account's name; not blank." })
  name?: string;
  @Field(() => Float, {
    nullable: true,
    description: 'Share of a time limit after which a project is nearly overdue (0 < r ≤ 1).',
  })
  nearlyOverdueRatio?: number;
  @Field(() => String, {
    nullable: true,
    description:
      'The ISO 4217 code of amounts and rates (`EUR`). Changing it relabels the amounts; it converts nothing.',
  })
  currency?: string;
  @Field(() => Boolean, {
    nullable: true,
    description:
      "Whether staff members see rates and amounts (costs and profits stay the owner's and the managers').",
  })
  staffSeeMoney?: boolean;
}
