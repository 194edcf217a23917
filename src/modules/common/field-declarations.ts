import type { ZodType } from 'zod';
import { type EntityName, PermissionDeniedError } from '../../core/errors';
import type { Viewer } from '../../core/viewer';

/**
 * What a field of an entity means to every interface besides its column (MikroORM's `@Property`)
 * and its GraphQL output (type-graphql's `@Field`), declared once on the entity's own property with
 * `@Declared`. The GraphQL filter and order types, the filter's property paths, the read rules of
 * lists and fields, and the input fields of new declarations are derived from these
 * (graphql/declared-types.ts); the legacy interfaces follow the GraphQL types they generate from.
 */
export interface FieldDeclaration {
  /** Filterable: `true` describes the filter field as the GraphQL field is; a text describes it so. */
  readonly filter?: true | string;
  /** Its value in the type's order enum (`NAME`): lists sort by its column. */
  readonly order?: string;
  /** What to know of that order besides the field's name ("in PostgreSQL uuid order"). */
  readonly orderNote?: string;
  /** Who may read it; a caller the rule refuses reads null and may not filter or order by it. */
  readonly read?: ReadRule;
  /**
   * Writable: what a create or update input accepts (a zod schema: the input limits). The input
   * field is added to the type's input class unless that class declares it itself.
   */
  readonly input?: ZodType;
  /** Its names and form on the legacy JSON and XML interfaces, when it is on them. */
  readonly legacy?: LegacyWire;
}

/**
 * A field on the legacy interfaces, whose names and forms are a contract with clients that cannot
 * change (docs/json-api.md, docs/xml-api.md). The facade renders, parses, filters and orders by
 * these: the value's form follows the GraphQL type (an enum in lower case, an instant as the
 * wire's time) unless `as` names another. XML elements come in the order of the declarations.
 */
export interface LegacyWire {
  /** Its name in the JSON API (`hourly_rate_cents`). */
  readonly json?: string;
  /** Its element in the XML API; `true`: named as in JSON. */
  readonly xml?: string | true;
  /** Shown but not written through the XML API, as its guide says (a company's coordinates). */
  readonly xmlReadOnly?: true;
  /** A form the GraphQL type does not say; see LegacyForm. */
  readonly as?: LegacyForm;
  /** Added after the legacy clients were written: on their wires only when set, so they read what they always did. */
  readonly whenSet?: true;
  /**
   * Never null on the legacy wires, though GraphQL may withhold it: the legacy routes answer only
   * records whose reader may read it (a personal field of a staff member).
   */
  readonly always?: true;
}

/**
 * - `string-boolean`: the text "true" or "false", never a JSON boolean (how the 2009 clients read `active`);
 * - `comma-text`: a list as one comma-separated text;
 * - `tag-text`: tags as the client typed them, one text (empty in XML when none);
 * - `amount`: an integer of cents as currency units with two decimals.
 */
export type LegacyForm = 'string-boolean' | 'comma-text' | 'tag-text' | 'amount';

/**
 * A rule guarding the reading of fields, written once in the owning module's policy: `row` masks
 * a field of a row, `query` decides whether a caller may filter or order by it (a filter on a
 * hidden value finds it by bisection).
 */
export interface ReadRule<Row = never> {
  readonly name: string;
  /** Who may, for the refusal's message: "only the owner and managers". */
  readonly refusal: string;
  query(viewer: Viewer): boolean;
  row(viewer: Viewer, row: Row): boolean;
  /**
   * `row` as SQL, for reads compiled to SQL: true or false when the viewer alone decides, else a
   * condition over the row's integer id (`row.id`, an SQL expression).
   */
  sql(viewer: Viewer, row: { readonly id: string }): boolean | string;
}

/** A declared field as its readers see it: its GraphQL name and the property path it stands for. */
export interface DeclaredField extends FieldDeclaration {
  /** The GraphQL name (of the field, the filter field and the input field). */
  readonly name: string;
  /** The class property it is declared on. */
  readonly property: string;
  /** The entity property path of filters and orders; dots follow a reference (`company.uuid`). */
  readonly path: string;
  /** For a reference's ids, which have no `@Field` of their own on the entity: their kind. */
  readonly reference?: 'id' | 'legacyId';
  readonly description?: string;
}

type Constructor = abstract new (...args: never[]) => unknown;

const declaredOn = new Map<object, DeclaredField[]>();

function declare(target: object, field: DeclaredField): void {
  const type = target.constructor;
  declaredOn.set(type, [...(declaredOn.get(type) ?? []), field]);
}

/** Declares what the interfaces need of this property's field (its GraphQL name is the property's). */
export function Declared(declaration: FieldDeclaration & { name?: string }): PropertyDecorator {
  return (target, property) => {
    const name = declaration.name ?? String(property);
    declare(target, { ...declaration, name, property: String(property), path: String(property) });
  };
}

/**
 * Declares the ids of a reference as filterable fields (`companyId`, `companyLegacyId` of a
 * project's `company`), ordered by the referenced uuid when `order` is given.
 */
export function DeclaredReference(options: {
  readonly id: string;
  readonly legacyId?: string;
  /** "the project's company": the filter fields say "The uuid of the project's company." */
  readonly of: string;
  readonly order?: string;
  /** The ids on the legacy wires (`company_uuid` in JSON, `company_id` in XML). */
  readonly legacy?: { readonly id?: LegacyWire; readonly legacyId?: LegacyWire };
}): PropertyDecorator {
  return (target, property) => {
    const path = String(property);
    declare(target, {
      name: options.id,
      property: path,
      path: `${path}.uuid`,
      reference: 'id',
      filter: `The uuid of ${options.of}.`,
      ...(options.order ? { order: options.order } : {}),
      ...(options.legacy?.id ? { legacy: options.legacy.id } : {}),
    });
    if (options.legacyId)
      declare(target, {
        name: options.legacyId,
        property: path,
        path: `${path}.id`,
        reference: 'legacyId',
        filter: `The integer id of ${options.of}.`,
        ...(options.legacy?.legacyId ? { legacy: options.legacy.legacyId } : {}),
      });
  };
}

const declaredOf = new WeakMap<object, readonly DeclaredField[]>();

/** A class and the classes it extends, the root first: what its decorators were spread over. */
export function classChain(type: Constructor): readonly object[] {
  const chain: object[] = [];
  for (let t: unknown = type; typeof t === 'function' && t !== Function.prototype;) {
    chain.unshift(t);
    t = Object.getPrototypeOf(t);
  }
  return chain;
}

/**
 * The declared fields of `type`, its parents' first (the columns every tenant row has). Read once
 * per type: every list asks, and the declarations are complete once the class is defined.
 */
export function declaredFields(type: Constructor): readonly DeclaredField[] {
  const known = declaredOf.get(type);
  if (known) return known;
  const fields = classChain(type).flatMap((t) => declaredOn.get(t) ?? []);
  declaredOf.set(type, fields);
  return fields;
}

/** GraphQL filter field → entity property path, for compileFilter. */
export function declaredFilterPaths(type: Constructor): Record<string, string> {
  return Object.fromEntries(
    declaredFields(type)
      .filter((f) => f.filter)
      .map((f) => [f.name, f.path]),
  );
}

/**
 * The zod shape of the declared inputs of `type`: what a create or update may write. With
 * `names`, those only (an operation that writes some of the fields: a punch-in's notes and tags),
 * typed by the entity's properties (what an input gives and what it writes); each must be
 * declared writable.
 */
export function declaredInputs(type: Constructor): Record<string, ZodType>;
export function declaredInputs<T, const K extends keyof T & string>(
  type: abstract new (...args: never[]) => T,
  names: readonly K[],
): { [P in K]: ZodType<T[P], T[P]> };
export function declaredInputs(
  type: Constructor,
  names?: readonly string[],
): Record<string, ZodType> {
  const inputs = Object.fromEntries(
    declaredFields(type).flatMap((f) => (f.input ? [[f.name, f.input]] : [])),
  );
  if (!names) return inputs;
  return Object.fromEntries(
    names.map((name) => {
      const input = inputs[name];
      if (!input) throw new Error(`${type.name}.${name} declares no input`);
      return [name, input];
    }),
  );
}

/**
 * A list's filter and order may name only fields the caller may read: a filter on a hidden value
 * would find it by bisection (`hourlyRateCents > 4999` lists a row, `> 5000` does not), so they
 * are refused with READ_DENIED (403 on the legacy interfaces, whose `where` and `order` compile to
 * these) rather than answered. `order` names paths (the order enum's values).
 */
export function assertQueryReadable(
  viewer: Viewer,
  entity: EntityName,
  type: Constructor,
  filter: object | undefined | null,
  order: readonly { field: string }[] | undefined | null,
): void {
  const guarded = declaredFields(type).filter((f) => f.read && !f.read.query(viewer));
  if (guarded.length === 0) return;
  const named = new Set([...filterFieldNames(filter), ...(order ?? []).map((o) => o.field)]);
  const refused = guarded.find((f) => named.has(f.name) || named.has(f.path));
  if (refused)
    throw new PermissionDeniedError(
      'read',
      entity,
      `Read denied: ${refused.read!.refusal} may filter or order by ${refused.name}`,
    );
}

/** Every field a filter names, through its `and`, `or` and `not`. */
function filterFieldNames(filter: object | undefined | null): string[] {
  if (!filter) return [];
  return Object.entries(filter).flatMap(([key, value]) => {
    if (value === undefined || value === null) return [];
    if (key === 'and' || key === 'or')
      return (value as object[]).flatMap((part) => filterFieldNames(part));
    if (key === 'not') return filterFieldNames(value as object);
    return [key];
  });
}
