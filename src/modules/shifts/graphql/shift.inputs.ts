import {
  CompanyRef,
  DeclaredInput,
  EntityFilter,
  EntityOrder,
  ProjectRef,
  ShiftRef,
  withDeclaredInputs,
} from '../../common';
import { Shift } from '../shift.entity';
import { Field, ID, InputType, Int } from 'type-graphql';
import type { NewShift, PunchInFields, ShiftChanges } from '../shift.changes';

export const ShiftFilter = EntityFilter(Shift, 'ShiftFilter', 'shifts');
export type ShiftFilter = InstanceType<typeof ShiftFilter>;
export const { input: ShiftOrder } = EntityOrder(Shift, 'ShiftOrder', 'shifts');

@InputType({ description: 'Omitted fields keep their value on update.' })
export class ShiftInput implements ShiftChanges {
  @DeclaredInput(
    Shift,
    'When the shift started; required on create unless `localStartAsString` is given.',
  )
  start?: Date;
  @DeclaredInput(Shift, 'Null or omitted on create: the shift is running.')
  stop?: Date | null;
  @Field(() => String, {
    nullable: true,
    description: "Human-readable wall time in the shift's zone; overrides start.",
  })
  localStartAsString?: string | null;
  @Field(() => String, {
    nullable: true,
    description: "Human-readable wall time in the shift's zone; overrides stop.",
  })
  localStopAsString?: string | null;
  @DeclaredInput(Shift, "IANA zone; the user's zone when omitted on create.")
  timeZone?: string;
  // notes and externalHref: added by withDeclaredInputs (below), described as the output fields.
  notes?: string | null;
  @DeclaredInput(Shift, "The project's billableByDefault when omitted.")
  billable?: boolean;
  @DeclaredInput(Shift, "The shift's tags; none when omitted on create.")
  tagList?: string[];
  externalHref?: string | null;
  @Field(() => ID, {
    nullable: true,
    description: "One of the project's activities (uuid); null: none.",
  })
  activityId?: string | null;
  @Field(() => Int, {
    nullable: true,
    description: "One of the project's activities (integer id); give this or `activityId`.",
  })
  activityLegacyId?: number | null;
  @Field(() => ID, { nullable: true, description: 'Moves the shift to another project (uuid).' })
  projectId?: string;
  @Field(() => Int, {
    nullable: true,
    description: 'Moves the shift to another project (integer id).',
  })
  projectLegacyId?: number;
  @Field(() => ID, {
    nullable: true,
    description:
      'The user who worked (uuid); the caller when omitted on create. Only owners and managers may name another user.',
  })
  userId?: string;
  @Field(() => Int, {
    nullable: true,
    description: 'The user who worked (integer id); give this or `userId`.',
  })
  userLegacyId?: number;
}

withDeclaredInputs(ShiftInput, Shift);

@InputType({
  description:
    'A new shift: running when `stop` is omitted or null. Give the project by `projectId` or `projectLegacyId`, and `start` or `localStartAsString`.',
})
export class CreateShiftInput extends ShiftInput implements NewShift {
  @Field(() => ID, {
    nullable: true,
    description: 'A uuid of your choice; generated when omitted.',
  })
  id?: string | null;

  // Redeclared for its description: on create the project is the shift's, not a move.
  @Field(() => ID, {
    nullable: true,
    description: "The shift's project (uuid); give this or `projectLegacyId`.",
  })
  override projectId?: string;

  @Field(() => Int, {
    nullable: true,
    description: "The shift's project (integer id); give this or `projectId`.",
  })
  override projectLegacyId?: number;
}

@InputType({ description: 'Starts a running shift for the caller on a project.' })
export class PunchInInput implements PunchInFields {
  @Field(() => ProjectRef, { description: 'The project to punch in to.' })
  project!: ProjectRef;

  @Field(() => CompanyRef, {
    nullable: true,
    description: 'Only if the project belongs to this company.',
  })
  inCompany?: CompanyRef | null;

  @Field(() => ID, {
    nullable: true,
    description: "The running shift's activity (uuid); one of the project's activities.",
  })
  activityId?: string | null;

  @Field(() => Int, {
    nullable: true,
    description: "The running shift's activity (integer id); give this or `activityId`.",
  })
  activityLegacyId?: number | null;

  @DeclaredInput(Shift, "The running shift's notes.")
  notes?: string | null;

  @DeclaredInput(Shift, "Tags of the running shift, added to the project's default tags.")
  tagList?: string[] | null;
}

@InputType({ description: "Stops the caller's running shift on a project." })
export class PunchOutInput {
  @Field(() => ProjectRef, { description: 'The project to punch out of.' })
  project!: ProjectRef;

  @Field(() => CompanyRef, {
    nullable: true,
    description: 'Only if the project belongs to this company.',
  })
  inCompany?: CompanyRef | null;

  @DeclaredInput(Shift, "Appended to the stopped shift's notes on a line of their own.")
  notes?: string | null;
}

@InputType({ description: 'Changes a shift (its user, or an owner or manager).' })
export class UpdateShiftInput {
  @Field(() => ShiftRef, { description: 'The shift to change.' })
  shift!: ShiftRef;
  @Field(() => ProjectRef, {
    nullable: true,
    description: 'Only if the shift belongs to this project.',
  })
  inProject?: ProjectRef | null;
  @Field(() => ShiftInput, { description: 'The fields to change; omitted ones keep their value.' })
  patch!: ShiftInput;
}

@InputType({ description: 'Deletes a shift (its user, or an owner or manager).' })
export class DeleteShiftInput {
  @Field(() => ShiftRef, { description: 'The shift to delete.' })
  shift!: ShiftRef;
  @Field(() => ProjectRef, {
    nullable: true,
    description: 'Only if the shift belongs to this project.',
  })
  inProject?: ProjectRef | null;
}
