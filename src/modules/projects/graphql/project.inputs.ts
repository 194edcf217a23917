import { Field, ID, InputType, Int } from 'type-graphql';
import type { NewProject, ProjectChanges } from '../project.changes';
import {
  CompanyRef,
  DeclaredInput,
  EntityFilter,
  EntityOrder,
  ProjectRef,
  Visibility,
  withDeclaredInputs,
} from '../../common';
import { Project } from '../project.entity';

export const ProjectFilter = EntityFilter(Project, 'ProjectFilter', 'projects');
export type ProjectFilter = InstanceType<typeof ProjectFilter>;
export const { input: ProjectOrder } = EntityOrder(Project, 'ProjectOrder', 'projects');

@InputType({ description: 'Omitted fields keep their value on update.' })
export class ProjectInput implements ProjectChanges {
  // name, timeLimit, timeLimitString, tagList and notes (and code): added by withDeclaredInputs
  // (below), described as the output fields.
  name?: string;
  @Field(() => ID, { nullable: true, description: 'Moves the project to another company (uuid).' })
  companyId?: string;
  @Field(() => Int, {
    nullable: true,
    description: 'Moves the project to another company (integer id).',
  })
  companyLegacyId?: number;
  @DeclaredInput(Project, 'Whether the project can be punched in to; true when omitted on create.')
  active?: boolean;
  @DeclaredInput(
    Project,
    "Who sees the project (whatever its company's visibility): PUBLIC everyone in the account, PRIVATE the owner and its creator, CUSTOM those and the listed users. PRIVATE when omitted on create.",
  )
  visibility?: Visibility;
  @Field(() => [ID], {
    nullable: true,
    description: 'Users of CUSTOM visibility, by uuid; replaces the list.',
  })
  userIds?: string[] | null;
  @Field(() => [Int], {
    nullable: true,
    description: 'Users of CUSTOM visibility, by integer id; replaces the list.',
  })
  userLegacyIds?: number[] | null;
  timeLimit?: number | null;
  timeLimitString?: string | null;
  @DeclaredInput(
    Project,
    'Tags copied onto each new running shift on punch-in. Give this or `defaultTagsText`.',
  )
  defaultTags?: string[];
  @DeclaredInput(
    Project,
    'Comma-separated, kept as written; sets `defaultTags`. Give this or `defaultTags`.',
  )
  defaultTagsText?: string | null;
  tagList?: string[];
  notes?: string | null;
  @DeclaredInput(
    Project,
    'The hourly rate as written ("$85", "$12.50"); fills `hourlyRateCents` when that is omitted or null.',
  )
  hourlyRate?: string | null;
  @DeclaredInput(Project, 'The hourly rate in cents.')
  hourlyRateCents?: number | null;
  @DeclaredInput(Project, 'The amount invoiced for the project, in cents.')
  invoiceAmountCents?: number | null;
  @DeclaredInput(
    Project,
    'The default of `billable` for new shifts on the project; true when omitted on create.',
  )
  billableByDefault?: boolean;
}

withDeclaredInputs(ProjectInput, Project);

@InputType({
  description:
    'A new project of a company (owners and managers): give the company by `companyId` or `companyLegacyId`.',
})
export class CreateProjectInput extends ProjectInput implements NewProject {
  @DeclaredInput(Project, { nullable: false })
  override name!: string;

  @Field(() => ID, {
    nullable: true,
    description: 'A uuid of your choice; generated when omitted.',
  })
  id?: string | null;

  // Redeclared for its description: on create the company is the project's, not a move.
  @Field(() => ID, {
    nullable: true,
    description: "The project's company (uuid); give this or `companyLegacyId`.",
  })
  override companyId?: string;

  @Field(() => Int, {
    nullable: true,
    description: "The project's company (integer id); give this or `companyId`.",
  })
  override companyLegacyId?: number;
}

@InputType({ description: 'Changes a project (owners and managers).' })
export class UpdateProjectInput {
  @Field(() => ProjectRef, { description: 'The project to change.' })
  project!: ProjectRef;
  @Field(() => CompanyRef, {
    nullable: true,
    description: 'Only if the project belongs to this company.',
  })
  inCompany?: CompanyRef | null;
  @Field(() => ProjectInput, {
    description: 'The fields to change; omitted ones keep their value.',
  })
  patch!: ProjectInput;
}

@InputType({ description: 'Deletes a project with its activities and shifts.' })
export class DeleteProjectInput {
  @Field(() => ProjectRef, { description: 'The project to delete.' })
  project!: ProjectRef;
  @Field(() => CompanyRef, {
    nullable: true,
    description: 'Only if the project belongs to this company.',
  })
  inCompany?: CompanyRef | null;
}
