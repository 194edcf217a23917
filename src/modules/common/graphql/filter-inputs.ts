import { DateTimeISOResolver } from './scalars';
import { Field, Float, ID, InputType, Int } from 'type-graphql';
import { StaffType, Visibility } from './enums';

/*
 * Per-type comparison operators. Every entity filter is built from these, and the legacy `where`
 * language compiles into exactly these inputs, so both kinds of client share one safe path.
 */

@InputType({
  description:
    'Compares a text field; every condition given must hold. `like` is a case-insensitive SQL LIKE: `%` and `_` are wildcards, `\\` makes the next character literal (a `\\` at the end is a literal backslash).',
})
export class StringFilter {
  @Field(() => String, { nullable: true, description: 'Equal to this text (case-sensitive).' })
  eq?: string;
  @Field(() => String, {
    nullable: true,
    description:
      'Not equal to this text (case-sensitive); a null field matches neither `eq` nor `ne`.',
  })
  ne?: string;
  @Field(() => String, {
    nullable: true,
    description: 'Sorts before this text (in the database collation).',
  })
  lt?: string;
  @Field(() => String, { nullable: true, description: 'Sorts before this text or equals it.' })
  lte?: string;
  @Field(() => String, {
    nullable: true,
    description: 'Sorts after this text (in the database collation).',
  })
  gt?: string;
  @Field(() => String, { nullable: true, description: 'Sorts after this text or equals it.' })
  gte?: string;
  @Field(() => String, {
    nullable: true,
    description:
      'Matches this case-insensitive pattern: `%` any run of characters, `_` one character; nothing is added implicitly.',
  })
  like?: string;
  @Field(() => [String], {
    nullable: true,
    description: 'Equal to one of these texts (at most 200).',
  })
  in?: string[];
  @Field(() => Boolean, {
    nullable: true,
    description: 'True: the field is null; false: it has a value.',
  })
  isNull?: boolean;
}

@InputType({ description: 'Compares an integer field; every condition given must hold.' })
export class IntFilter {
  @Field(() => Int, { nullable: true, description: 'Equal to this number.' })
  eq?: number;
  @Field(() => Int, {
    nullable: true,
    description: 'Not equal to this number; a null field matches neither `eq` nor `ne`.',
  })
  ne?: number;
  @Field(() => Int, { nullable: true, description: 'Less than this number.' })
  lt?: number;
  @Field(() => Int, { nullable: true, description: 'Less than or equal to this number.' })
  lte?: number;
  @Field(() => Int, { nullable: true, description: 'Greater than this number.' })
  gt?: number;
  @Field(() => Int, { nullable: true, description: 'Greater than or equal to this number.' })
  gte?: number;
  @Field(() => [Int], {
    nullable: true,
    description: 'Equal to one of these numbers (at most 200).',
  })
  in?: number[];
  @Field(() => Boolean, {
    nullable: true,
    description: 'True: the field is null; false: it has a value.',
  })
  isNull?: boolean;
}

@InputType({
  description: 'Compares a floating-point field (coordinates); every condition given must hold.',
})
export class FloatFilter {
  @Field(() => Float, { nullable: true, description: 'Equal to this number.' })
  eq?: number;
  @Field(() => Float, {
    nullable: true,
    description: 'Not equal to this number; a null field matches neither `eq` nor `ne`.',
  })
  ne?: number;
  @Field(() => Float, { nullable: true, description: 'Less than this number.' })
  lt?: number;
  @Field(() => Float, { nullable: true, description: 'Less than or equal to this number.' })
  lte?: number;
  @Field(() => Float, { nullable: true, description: 'Greater than this number.' })
  gt?: number;
  @Field(() => Float, { nullable: true, description: 'Greater than or equal to this number.' })
  gte?: number;
  @Field(() => Boolean, {
    nullable: true,
    description: 'True: the field is null; false: it has a value.',
  })
  isNull?: boolean;
}

@InputType({ description: 'Compares a true/false field; every condition given must hold.' })
export class BooleanFilter {
  @Field(() => Boolean, { nullable: true, description: 'Equal to this value.' })
  eq?: boolean;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Not equal to this value; a null field matches neither `eq` nor `ne`.',
  })
  ne?: boolean;
  @Field(() => Boolean, {
    nullable: true,
    description: 'True: the field is null; false: it has a value.',
  })
  isNull?: boolean;
}

@InputType({
  description: 'Compares an instant (a `DateTimeISO` field); every condition given must hold.',
})
export class DateTimeFilter {
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'At exactly this instant.' })
  eq?: Date;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'At any other instant; a null field matches neither `eq` nor `ne`.',
  })
  ne?: Date;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Before this instant.' })
  lt?: Date;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'At or before this instant.' })
  lte?: Date;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'After this instant.' })
  gt?: Date;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'At or after this instant.' })
  gte?: Date;
  @Field(() => Boolean, {
    nullable: true,
    description: "true: the field is null (a running shift's `stop`); false: it has a value.",
  })
  isNull?: boolean;
}

@InputType({
  description:
    'Compares identifiers (UUIDs); every condition given must hold. lt, lte, gt and gte follow the order of the `ID` order fields.',
})
export class IDFilter {
  @Field(() => ID, { nullable: true, description: 'This uuid.' })
  eq?: string;
  @Field(() => ID, {
    nullable: true,
    description: 'Any uuid but this one; a null field matches neither `eq` nor `ne`.',
  })
  ne?: string;
  // The ranges let a keyset page continue after a row in uuid order (the shift export).
  @Field(() => ID, {
    nullable: true,
    description: 'Before this uuid in the order of the `ID` order fields.',
  })
  lt?: string;
  @Field(() => ID, { nullable: true, description: 'Before this uuid or equal to it.' })
  lte?: string;
  @Field(() => ID, {
    nullable: true,
    description: 'After this uuid in the order of the `ID` order fields.',
  })
  gt?: string;
  @Field(() => ID, { nullable: true, description: 'After this uuid or equal to it.' })
  gte?: string;
  @Field(() => [ID], { nullable: true, description: 'One of these uuids (at most 200).' })
  in?: string[];
  @Field(() => Boolean, {
    nullable: true,
    description: 'True: the field is null (a shift without an activity); false: it has a value.',
  })
  isNull?: boolean;
}

@InputType({ description: "Compares a user's role; every condition given must hold." })
export class StaffTypeFilter {
  @Field(() => StaffType, { nullable: true, description: 'This role.' })
  eq?: StaffType;
  @Field(() => StaffType, { nullable: true, description: 'Any role but this one.' })
  ne?: StaffType;
  @Field(() => [StaffType], { nullable: true, description: 'One of these roles.' })
  in?: StaffType[];
}

@InputType({
  description: "Compares a company's or project's visibility; every condition given must hold.",
})
export class VisibilityFilter {
  @Field(() => Visibility, { nullable: true, description: 'This visibility.' })
  eq?: Visibility;
  @Field(() => Visibility, { nullable: true, description: 'Any visibility but this one.' })
  ne?: Visibility;
  @Field(() => [Visibility], { nullable: true, description: 'One of these visibilities.' })
  in?: Visibility[];
}

export type ScalarFilter =
  | StringFilter
  | IntFilter
  | FloatFilter
  | BooleanFilter
  | DateTimeFilter
  | IDFilter
  | StaffTypeFilter
  | VisibilityFilter;

/**
 * What the combinators of every entity filter (`ShiftFilter`, `ProjectFilter`, ...) mean, and
 * what a list's `filter` and `order` arguments do: the same on every type, so written once here.
 */
export const FILTER_DESCRIPTIONS = {
  and: 'Every one of these filters must match.',
  or: 'At least one of these filters must match.',
  not: 'This filter must not match.',
  filterArg:
    'Only rows matching this filter (fields, `and`, `or`, `not`; at most 16 levels and 200 comparisons). Rows the caller may not see are never listed, whatever the filter.',
  orderArg:
    'Sort keys, applied in turn; ties end in `legacyId` ascending, so pages are stable. Without it, rows come by `legacyId`.',
} as const;

/** The description of an entity filter input: `noun` is what it selects ("shifts"). */
export function filterTypeDescription(noun: string): string {
  return `Selects ${noun}: every field and combinator given must hold (AND); \`or\` and \`not\` express the rest.`;
}
