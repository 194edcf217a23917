import { Field, ID, InputType, Int } from 'type-graphql';
import type { CompanyChanges, NewCompany } from '../company.changes';
import {
  CompanyRef,
  DeclaredInput,
  EntityFilter,
  EntityOrder,
  Visibility,
  withDeclaredInputs,
} from '../../common';
import { Company } from '../company.entity';

export const CompanyFilter = EntityFilter(Company, 'CompanyFilter', 'companies');
export type CompanyFilter = InstanceType<typeof CompanyFilter>;
export const { input: CompanyOrder } = EntityOrder(Company, 'CompanyOrder', 'companies');

@InputType({ description: 'Omitted fields keep their value on update.' })
export class CompanyInput implements CompanyChanges {
  // name, the contact fields and notes: added by withDeclaredInputs (below), described as the
  // output fields.
  name?: string;
  @DeclaredInput(
    Company,
    'Who sees the company: PUBLIC everyone in the account, PRIVATE the owner and its creator, CUSTOM those and the listed users. PRIVATE when omitted on create.',
  )
  visibility?: Visibility;
  @Field(() => [ID], { nullable: true, description: 'Users of CUSTOM visibility, by uuid.' })
  userIds?: string[] | null;
  @Field(() => [Int], { nullable: true, description: 'Users of CUSTOM visibility, by integer id.' })
  userLegacyIds?: number[] | null;
  @DeclaredInput(
    Company,
    'Degrees, north positive. When both are left empty and all five address fields are filled, a save that sets the address looks them up.',
  )
  latitude?: number | null;
  @DeclaredInput(Company, 'Degrees, east positive; looked up like `latitude`.')
  longitude?: number | null;
}

withDeclaredInputs(CompanyInput, Company);

@InputType({ description: 'A new company (owners and managers).' })
export class CreateCompanyInput extends CompanyInput implements NewCompany {
  @DeclaredInput(Company, { nullable: false })
  override name!: string;

  @Field(() => ID, {
    nullable: true,
    description: 'A uuid of your choice; generated when omitted.',
  })
  id?: string | null;
}

@InputType({ description: 'Changes a company (owners and managers).' })
export class UpdateCompanyInput {
  @Field(() => CompanyRef, { description: 'The company to change.' })
  company!: CompanyRef;
  @Field(() => CompanyInput, {
    description: 'The fields to change; omitted ones keep their value.',
  })
  patch!: CompanyInput;
}

@InputType({ description: 'Deletes a company with its projects, activities and shifts.' })
export class DeleteCompanyInput {
  @Field(() => CompanyRef, { description: 'The company to delete.' })
  company!: CompanyRef;
}
