import { DateTimeISOResolver } from './scalars';
import { Field, Float, ID, InputType, Int } from 'type-graphql';
import { StaffType, Visibility } from './enums';

/*
 * Per-type comparison operators. Every entity filter is built from these, and the legacy `where`
 * language compiles into exactly these inputs, so both kinds of client share one safe path.
 */

@InputType({
  description:
    '`like` is a case-insensitive SQL LIKE: `%` and `_` are wildcards, `\\` makes the next character literal (a `\\` at the end is a literal backslash).',
})
export class StringFilter {
  @Field(() => String, { nullable: true }) eq?: string;
  @Field(() => String, { nullable: true }) ne?: string;
  @Field(() => String, { nullable: true }) lt?: string;
  @Field(() => String, { nullable: true }) lte?: string;
  @Field(() => String, { nullable: true }) gt?: string;
  @Field(() => String, { nullable: true }) gte?: string;
  @Field(() => String, { nullable: true }) like?: string;
  @Field(() => [String], { nullable: true }) in?: string[];
  @Field(() => Boolean, { nullable: true }) isNull?: boolean;
}

@InputType()
export class IntFilter {
  @Field(() => Int, { nullable: true }) eq?: number;
  @Field(() => Int, { nullable: true }) ne?: number;
  @Field(() => Int, { nullable: true }) lt?: number;
  @Field(() => Int, { nullable: true }) lte?: number;
  @Field(() => Int, { nullable: true }) gt?: number;
  @Field(() => Int, { nullable: true }) gte?: number;
  @Field(() => [Int], { nullable: true }) in?: number[];
  @Field(() => Boolean, { nullable: true }) isNull?: boolean;
}

@InputType()
export class FloatFilter {
  @Field(() => Float, { nullable: true }) eq?: number;
  @Field(() => Float, { nullable: true }) ne?: number;
  @Field(() => Float, { nullable: true }) lt?: number;
  @Field(() => Float, { nullable: true }) lte?: number;
  @Field(() => Float, { nullable: true }) gt?: number;
  @Field(() => Float, { nullable: true }) gte?: number;
  @Field(() => Boolean, { nullable: true }) isNull?: boolean;
}

@InputType()
export class BooleanFilter {
  @Field(() => Boolean, { nullable: true }) eq?: boolean;
  @Field(() => Boolean, { nullable: true }) ne?: boolean;
  @Field(() => Boolean, { nullable: true }) isNull?: boolean;
}

@InputType()
export class DateTimeFilter {
  @Field(() => DateTimeISOResolver, { nullable: true }) eq?: Date;
  @Field(() => DateTimeISOResolver, { nullable: true }) ne?: Date;
  @Field(() => DateTimeISOResolver, { nullable: true }) lt?: Date;
  @Field(() => DateTimeISOResolver, { nullable: true }) lte?: Date;
  @Field(() => DateTimeISOResolver, { nullable: true }) gt?: Date;
  @Field(() => DateTimeISOResolver, { nullable: true }) gte?: Date;
  @Field(() => Boolean, { nullable: true }) isNull?: boolean;
}

@InputType({
  description:
    'Compares identifiers (UUIDs); lt, lte, gt and gte follow the order of the `ID` order fields.',
})
export class IDFilter {
  @Field(() => ID, { nullable: true }) eq?: string;
  @Field(() => ID, { nullable: true }) ne?: string;
  // The ranges let a keyset page continue after a row in uuid order (the shift export).
  @Field(() => ID, { nullable: true }) lt?: string;
  @Field(() => ID, { nullable: true }) lte?: string;
  @Field(() => ID, { nullable: true }) gt?: string;
  @Field(() => ID, { nullable: true }) gte?: string;
  @Field(() => [ID], { nullable: true }) in?: string[];
  @Field(() => Boolean, { nullable: true }) isNull?: boolean;
}

@InputType()
export class StaffTypeFilter {
  @Field(() => StaffType, { nullable: true }) eq?: StaffType;
  @Field(() => StaffType, { nullable: true }) ne?: StaffType;
  @Field(() => [StaffType], { nullable: true }) in?: StaffType[];
}

@InputType()
export class VisibilityFilter {
  @Field(() => Visibility, { nullable: true }) eq?: Visibility;
  @Field(() => Visibility, { nullable: true }) ne?: Visibility;
  @Field(() => [Visibility], { nullable: true }) in?: Visibility[];
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
