import { Field, ID, ObjectType } from 'type-graphql';
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
}
