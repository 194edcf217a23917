import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
} from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import { declaredFields, type DeclaredField } from '../modules/common';

/**
 * The legacy wire tables the facade renders, parses, filters and orders by, generated from the
 * field declarations (`legacy` of @Declared) and the schema they built: the facade is a client of
 * GraphQL and reads no entity, so what it needs of each field is written out for it, as the SDL
 * is. `npm run schema:emit` writes both files; test/unit/schema-drift.test.ts compares them.
 */
export const LEGACY_TABLES_FILE = 'rest-facade/operations/legacy-fields.generated.ts';
export const LEGACY_FRAGMENTS_FILE = 'rest-facade/operations/legacy-fields.generated.graphql';

/** One field of a type on the legacy wires, as the facade's table holds it. */
interface WireRow {
  readonly field: string;
  readonly type: string;
  readonly list?: true;
  readonly nullable?: true;
  /** Not a field of the object type (a reference's id only filters and writes): never rendered. */
  readonly unread?: true;
  readonly values?: readonly string[];
  readonly json?: string;
  readonly xml?: string;
  readonly as?: string;
  readonly whenSet?: true;
  readonly always?: true;
  readonly xmlReadOnly?: true;
  /** The values a create or update may write, when they are fewer than the field's. */
  readonly input?: true | readonly string[];
  readonly filter?: true;
  readonly order?: string;
  readonly description?: string;
}

type Type = abstract new () => unknown;

/**
 * The object types of `schema` that declare fields of their own on the legacy wires (every tenant
 * row has legacy ids; the types the facade serves declare more), in the order they are defined.
 */
function legacyTypes(schema: GraphQLSchema): { name: string; fields: readonly DeclaredField[] }[] {
  const legacyOf = (type: Type) => declaredFields(type).filter((f) => f.legacy);
  return getMetadataStorage()
    .objectTypes.filter((t) => isObjectType(schema.getType(t.name)))
    .map((t) => ({ name: t.name, type: t.target as Type }))
    .filter(({ type }) => legacyOf(type).length > legacyOf(Object.getPrototypeOf(type)).length)
    .map(({ name, type }) => ({ name, fields: legacyOf(type) }));
}

export function legacyWireTables(schema: GraphQLSchema): { tables: string; fragments: string } {
  const types = legacyTypes(schema).map(({ name, fields }) => ({
    name,
    rows: fields.map((f) => wireRow(schema, name, f)),
  }));
  return { tables: printTables(types), fragments: printFragments(types) };
}

function wireRow(schema: GraphQLSchema, typeName: string, f: DeclaredField): WireRow {
  const object = schema.getType(typeName);
  if (!isObjectType(object)) throw new Error(`${typeName} is no object type`);
  const output = object.getFields()[f.name];
  const input = writableField(schema, typeName, f.name);
  const type: GraphQLType | undefined =
    output?.type ?? input?.type ?? filterType(schema, typeName, f);
  if (!type) throw new Error(`${typeName}.${f.name} has a legacy name but no type`);
  const named = getNamedType(type);
  const inputValues = input && enumValues(getNamedType(input.type));
  const values = enumValues(named);
  const legacy = f.legacy!;
  return {
    field: f.name,
    type: named.name,
    ...(isList(type) ? { list: true } : {}),
    ...(isNonNullType(type) ? {} : { nullable: true }),
    ...(output ? {} : { unread: true }),
    ...(values ? { values } : {}),
    ...(legacy.json ? { json: legacy.json } : {}),
    ...(legacy.xml ? { xml: legacy.xml === true ? legacy.json! : legacy.xml } : {}),
    ...(legacy.as ? { as: legacy.as } : {}),
    ...(legacy.whenSet ? { whenSet: true } : {}),
    ...(legacy.always ? { always: true } : {}),
    ...(legacy.xmlReadOnly ? { xmlReadOnly: true } : {}),
    ...(input
      ? { input: inputValues && inputValues.length < (values?.length ?? 0) ? inputValues : true }
      : {}),
    ...(f.filter ? { filter: true } : {}),
    ...(f.order ? { order: f.order } : {}),
    ...(output?.description ? { description: output.description } : {}),
  };
}

/** The field of the type's create input, or of its update's patch, that writes `name`. */
function writableField(
  schema: GraphQLSchema,
  typeName: string,
  name: string,
): GraphQLInputField | undefined {
  const create = schema.getType(`Create${typeName}Input`);
  const update = schema.getType(`Update${typeName}Input`);
  const patch = isInputObjectType(update) ? update.getFields().patch : undefined;
  const patchType = patch ? getNamedType(patch.type) : update;
  return [create, patchType]
    .map((t) => (isInputObjectType(t) ? t.getFields()[name] : undefined))
    .find((field) => field !== undefined);
}

/** A filter-only field's type, from its filter input (`IDFilter` filters an `ID`). */
function filterType(schema: GraphQLSchema, typeName: string, f: DeclaredField) {
  const filter = schema.getType(`${typeName}Filter`);
  const field = isInputObjectType(filter) ? filter.getFields()[f.name] : undefined;
  const named = field && getNamedType(field.type).name.replace(/Filter$/, '');
  return named ? schema.getType(named) : undefined;
}

function enumValues(type: GraphQLNamedType): string[] | undefined {
  return isEnumType(type) ? type.getValues().map((v) => v.name) : undefined;
}

function isList(type: GraphQLType): boolean {
  return isListType(isNonNullType(type) ? type.ofType : type);
}

function printTables(types: readonly { name: string; rows: readonly WireRow[] }[]): string {
  const body = types
    .map(
      ({ name, rows }) =>
        `  ${name}: [\n${rows.map((r) => `    ${JSON.stringify(r)},\n`).join('')}  ],`,
    )
    .join('\n');
  return `// Generated by \`npm run schema:emit\` from the field declarations (\`legacy\` of @Declared); do not edit.
export const LEGACY_FIELDS = {
${body}
} as const;
`;
}

function printFragments(types: readonly { name: string; rows: readonly WireRow[] }[]): string {
  const fragments = types.map(
    ({ name, rows }) =>
      `fragment ${name}Legacy on ${name} {\n${rows
        .filter((r) => !r.unread)
        .map((r) => `  ${r.field}\n`)
        .join('')}}\n`,
  );
  return `# Generated by \`npm run schema:emit\` from the field declarations (\`legacy\` of @Declared); do not edit.\n# The fields each legacy representation renders as declared; the fragments in fragments.graphql add the rest.\n\n${fragments.join('\n')}`;
}
