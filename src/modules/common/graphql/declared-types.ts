import {
  defaultFieldResolver,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
import { MapperKind, mapSchema } from '@graphql-tools/utils';
import {
  Field,
  Float,
  getMetadataStorage,
  ID,
  InputType,
  Int,
  registerEnumType,
  type ClassType,
} from 'type-graphql';
import type { FieldMetadata } from 'type-graphql/build/typings/metadata/definitions';

/** What a `@Field`'s type function answers. */
type GraphQLTypeValue = ReturnType<FieldMetadata['getType']>;
import { z, type ZodType } from 'zod';
import type { RequestContext } from '../../../core/request-context';
import { declaredFields, type DeclaredField } from '../field-declarations';
import { StaffType, Visibility } from './enums';
import {
  BooleanFilter,
  DateTimeFilter,
  FILTER_DESCRIPTIONS,
  filterTypeDescription,
  FloatFilter,
  IDFilter,
  IntFilter,
  StaffTypeFilter,
  StringFilter,
  VisibilityFilter,
} from './filter-inputs';
import { OrderInput } from './list-args';
import { DateTimeISOResolver } from './scalars';

/*
 * The GraphQL types derived from the field declarations (field-declarations.ts): each entity's
 * filter input, its order enum and input, the input fields of declared writable fields, and the
 * read rules' masks on the built schema. Names, types and descriptions come from the `@Field` of
 * each property (type-graphql's metadata), so none of them is written twice.
 */

type Entity = abstract new (...args: never[]) => unknown;

/** The comparison input of each GraphQL type a declared field can have. */
const FILTER_OF = new Map<unknown, ClassType>([
  [String, StringFilter],
  [Int, IntFilter],
  [Float, FloatFilter],
  [Boolean, BooleanFilter],
  [ID, IDFilter],
  [DateTimeISOResolver, DateTimeFilter],
  [Visibility, VisibilityFilter],
  [StaffType, StaffTypeFilter],
]);

/** The `@Field` of a declared property, on its class or a parent. */
function graphqlFieldOf(type: Entity, field: DeclaredField): FieldMetadata | undefined {
  const fields = getMetadataStorage().fields;
  for (let t: unknown = type; typeof t === 'function'; t = Object.getPrototypeOf(t)) {
    const found = fields.find((f) => f.target === t && f.name === field.property);
    if (found) return found;
  }
  return undefined;
}

function graphqlTypeOf(type: Entity, field: DeclaredField): GraphQLTypeValue {
  if (field.reference) return field.reference === 'id' ? ID : Int;
  const meta = graphqlFieldOf(type, field);
  if (!meta) throw new Error(`${type.name}.${field.property} is declared without a @Field`);
  return meta.getType();
}

/** What the field is, in a description: the `@Field`'s own, and what guards its reading. */
function describe(type: Entity, field: DeclaredField): string {
  const own =
    typeof field.filter === 'string' ? field.filter : graphqlFieldOf(type, field)?.description;
  return field.read ? `${own} ${readNote(field)}` : (own ?? '');
}

/** "By `active` (false first, ascending)." and the like: what an order by the field means. */
function describeOrder(type: Entity, field: DeclaredField): string {
  const notes = [
    field.orderNote,
    graphqlTypeOf(type, field) === Boolean ? 'false first, ascending' : undefined,
  ].filter(Boolean);
  const by = `By \`${field.name}\`${notes.length ? ` (${notes.join('; ')})` : ''}.`;
  return field.read ? `${by} ${readNote(field)}` : by;
}

/** The limits a writable field's input schema sets, in words ("At most 32 characters."). */
function limitsOf(input: ZodType): string | undefined {
  const schema = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' });
  const max =
    schema.maxLength ??
    schema.anyOf?.flatMap((s) => (typeof s === 'object' && s.maxLength) || [])[0];
  return max === undefined ? undefined : `At most ${max.toLocaleString('en')} characters.`;
}

const readNote = (field: DeclaredField) =>
  `READ_DENIED for a caller the ${field.read!.name} rule keeps it from.`;

/**
 * The filter input of an entity (`ProjectFilter`): `and`, `or`, `not` and one comparison field per
 * declared filterable field, the columns every row has included.
 */
export function EntityFilter(type: Entity, name: string, noun: string): ClassType {
  @InputType(name, { description: filterTypeDescription(noun) })
  class Filter {}
  Field(() => [Filter], { nullable: true, description: FILTER_DESCRIPTIONS.and })(
    Filter.prototype,
    'and',
  );
  Field(() => [Filter], { nullable: true, description: FILTER_DESCRIPTIONS.or })(
    Filter.prototype,
    'or',
  );
  Field(() => Filter, { nullable: true, description: FILTER_DESCRIPTIONS.not })(
    Filter.prototype,
    'not',
  );
  for (const field of declaredFields(type)) {
    if (!field.filter) continue;
    const comparison = FILTER_OF.get(graphqlTypeOf(type, field));
    if (!comparison) throw new Error(`${type.name}.${field.name} has no filter input for its type`);
    Field(() => comparison, { nullable: true, description: describe(type, field) })(
      Filter.prototype,
      field.name,
    );
  }
  return Filter;
}

/** SCREAMING_CASE order values → the property paths lists sort by. */
export type OrderEnum = Record<string, string>;

/**
 * The order enum (`ProjectOrderField`: its values are the property paths) and order input
 * (`ProjectOrder`) of an entity, from the declared orderable fields.
 */
export function EntityOrder(type: Entity, name: string, noun: string) {
  const fields = declaredFields(type).filter((f) => f.order);
  const values: OrderEnum = Object.fromEntries(fields.map((f) => [f.order!, f.path]));
  registerEnumType(values, {
    name: `${name}Field`,
    description: `What ${noun} can be sorted by.`,
    valuesConfig: Object.fromEntries(
      fields.map((f) => [f.order!, { description: describeOrder(type, f) }]),
    ),
  });
  return { values, input: OrderInput(values, name) };
}

/**
 * Adds to an input class (`ProjectInput`) a nullable field for each declared writable field it
 * does not declare itself; its description is the output field's.
 */
export function withDeclaredInputs<T extends ClassType>(input: T, type: Entity): T {
  const own = new Set(
    getMetadataStorage()
      .fields.filter((f) => f.target === input)
      .map((f) => f.name),
  );
  for (const field of declaredFields(type)) {
    if (!field.input || own.has(field.name)) continue;
    const described = [graphqlFieldOf(type, field)?.description, limitsOf(field.input)];
    Field(() => graphqlTypeOf(type, field), {
      nullable: true,
      description: described.filter(Boolean).join(' '),
    })(input.prototype, field.name);
  }
  return input;
}

/**
 * Applies each declared read rule to its field of the built schema: a caller the rule refuses
 * reads null. Object types are matched to their entities by type-graphql's metadata.
 */
export function maskDeclaredFields(schema: GraphQLSchema): GraphQLSchema {
  const entityOf = new Map(getMetadataStorage().objectTypes.map((t) => [t.name, t.target]));
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (config, fieldName, typeName) => {
      const entity = entityOf.get(typeName) as Entity | undefined;
      const rule = entity && declaredFields(entity).find((f) => f.name === fieldName)?.read;
      if (!rule) return config;
      const resolve: GraphQLFieldResolver<unknown, RequestContext> =
        config.resolve ?? defaultFieldResolver;
      return {
        ...config,
        resolve: (row, args, ctx, info: GraphQLResolveInfo) =>
          rule.row(ctx.viewer, row as never) ? resolve(row, args, ctx, info) : null,
      };
    },
  });
}
