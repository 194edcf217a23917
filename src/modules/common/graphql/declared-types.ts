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

/** The GraphQL type of a declared field's input: its output field's, a list when that is one. */
function inputTypeOf(type: Entity, field: DeclaredField): GraphQLTypeValue | [GraphQLTypeValue] {
  const named = graphqlTypeOf(type, field);
  return graphqlFieldOf(type, field)?.typeOptions.array ? [named] : named;
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

/**
 * The limits a writable field's input schema sets, in words ("Not blank, at most 255
 * characters."), read from its JSON Schema: lengths, counts and ranges, and `notBlank` (metadata
 * of `fields.requiredText`). What it cannot read (a pattern, a refinement) the description says.
 */
function limitsOf(input: ZodType): string | undefined {
  const json = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' });
  const schema = (json.anyOf?.find((s) => typeof s === 'object' && s.type !== 'null') ??
    json) as JSONSchemaOf;
  const words = [...(schema.notBlank ? ['not blank'] : []), ...rangeOf(schema)].join(', ');
  return words ? `${words[0]!.toUpperCase()}${words.slice(1)}.` : undefined;
}

interface JSONSchemaOf {
  type?: string;
  notBlank?: true;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  items?: { maxLength?: number };
}

/** A text's length, a list's count (and its items' length), or a number's range, in words. */
function rangeOf(schema: JSONSchemaOf): string[] {
  const { minimum: min, maximum: max } = schema;
  switch (schema.type) {
    case 'string':
      return schema.maxLength === undefined
        ? []
        : [`at most ${amount(schema.maxLength)} characters`];
    case 'array': {
      const each = schema.items?.maxLength;
      if (schema.maxItems === undefined) return [];
      return [
        `at most ${amount(schema.maxItems)}${each === undefined ? '' : ` of up to ${amount(each)} characters`}`,
      ];
    }
    case 'integer':
    case 'number':
      if (min === 0)
        return ['not negative', ...(max === undefined ? [] : [`at most ${amount(max)}`])];
      if (min !== undefined && max !== undefined) return [`from ${amount(min)} to ${amount(max)}`];
      return [
        ...(min === undefined ? [] : [`at least ${amount(min)}`]),
        ...(max === undefined ? [] : [`at most ${amount(max)}`]),
      ];
    default:
      return [];
  }
}

const amount = (n: number) => n.toLocaleString('en');

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
 * does not declare itself; its description is the output field's, then the limits of its declared
 * input in words.
 */
export function withDeclaredInputs<T extends ClassType>(input: T, type: Entity): T {
  const own = new Set(
    getMetadataStorage()
      .fields.filter((f) => f.target === input)
      .map((f) => f.name),
  );
  for (const field of declaredFields(type)) {
    if (!field.input || own.has(field.name)) continue;
    Field(() => inputTypeOf(type, field), {
      nullable: true,
      description: describeInput(type, field),
    })(input.prototype, field.name);
  }
  return input;
}

/**
 * The input field of a declared writable field of `type`, for an input that says what the field
 * means to its operation (a text, or `description`: a punch-out appends its notes, an update keeps
 * an omitted value): the declared field's GraphQL type, the description (the output field's when
 * none is given), then the declared limits in words, so that the limits are written once, on the
 * entity. Nullable unless `nullable: false` (a create's required name).
 */
export function DeclaredInput(
  type: Entity,
  options: string | { readonly description?: string; readonly nullable?: false } = {},
): PropertyDecorator {
  const { description, nullable } =
    typeof options === 'string' ? { description: options } : options;
  return (target, property) => {
    const field = declaredFields(type).find((f) => f.name === property && f.input);
    if (!field) throw new Error(`${type.name}.${String(property)} declares no input`);
    Field(() => inputTypeOf(type, field), {
      nullable: nullable ?? true,
      description: describeInput(type, field, description),
    })(target, property);
  };
}

/** An input field's description: its own or the output field's, then the limits in words. */
function describeInput(type: Entity, field: DeclaredField, own?: string): string {
  const described = [own ?? graphqlFieldOf(type, field)?.description, limitsOf(field.input!)];
  return described.filter(Boolean).join(' ');
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
