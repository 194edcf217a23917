import { Field, ID, InputType, Int } from 'type-graphql';

/**
 * The names of the input types that take exactly one of their fields (`@oneOf`). type-graphql has
 * no option for it, so the schema assembly marks these after building (src/graphql/schema.ts);
 * graphql-js then refuses both and neither, in literals and in variables alike.
 */
export const ONE_OF_INPUT_TYPES = new Set<string>();

/**
 * An input naming one existing object by its uuid (`id`) or its integer id (`legacyId`): exactly
 * one of them. The mutations that act on an existing object take one of these.
 */
function Ref(name: string, noun: string) {
  @InputType(name, {
    description: `Names one ${noun} by exactly one of \`id\` and \`legacyId\`.`,
  })
  class RefInput {
    @Field(() => ID, { nullable: true, description: `The ${noun}'s uuid.` })
    id?: string;

    @Field(() => Int, {
      nullable: true,
      description: `The ${noun}'s integer id (the XML interface's id).`,
    })
    legacyId?: number;
  }
  ONE_OF_INPUT_TYPES.add(name);
  return RefInput;
}

export const CompanyRef = Ref('CompanyRef', 'company');
export type CompanyRef = InstanceType<typeof CompanyRef>;
export const ProjectRef = Ref('ProjectRef', 'project');
export type ProjectRef = InstanceType<typeof ProjectRef>;
export const ActivityRef = Ref('ActivityRef', 'activity');
export type ActivityRef = InstanceType<typeof ActivityRef>;
export const ShiftRef = Ref('ShiftRef', 'shift');
export type ShiftRef = InstanceType<typeof ShiftRef>;
export const StaffRef = Ref('StaffRef', 'user');
export type StaffRef = InstanceType<typeof StaffRef>;
