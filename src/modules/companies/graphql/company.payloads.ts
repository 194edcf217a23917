import { Field, ID, Int, ObjectType } from 'type-graphql';
import { cascadeDescriptions as d } from '../../writes/graphql';
import { Company } from '../company.entity';

@ObjectType({ description: 'What creating a company changed.' })
export class CreateCompanyPayload {
  @Field(() => Company, { description: 'The new company.' })
  company!: Company;
}

@ObjectType({ description: 'What updating a company changed.' })
export class UpdateCompanyPayload {
  @Field(() => Company, { description: 'The company as it is now.' })
  company!: Company;
}

@ObjectType({
  description: 'What deleting a company changed: its projects, activities and shifts are gone too.',
})
export class DeleteCompanyPayload {
  @Field(() => ID, {
    description: 'The uuid of the deleted company: remove it from a client cache.',
  })
  deletedCompanyId!: string;
  @Field(() => Company, { description: 'The company as it was before the deletion.' })
  company!: Company;
  @Field(() => [ID], { description: d.deletedIds('projects') })
  deletedProjectIds!: readonly string[];
  @Field(() => Int, { description: d.count('projects') })
  deletedProjectCount!: number;
  @Field(() => [ID], { description: d.deletedIds('activities of its projects') })
  deletedActivityIds!: readonly string[];
  @Field(() => Int, { description: d.count('activities') })
  deletedActivityCount!: number;
  @Field(() => [ID], {
    description: `${d.deletedIds('shifts of its projects')} Each also sent SHIFT_DELETED (subscription, webhooks).`,
  })
  deletedShiftIds!: readonly string[];
  @Field(() => Int, { description: d.count('shifts') })
  deletedShiftCount!: number;
}
