import { AppError, type EntityName } from '../../src/core/errors';
import type { LegacyEntity } from '../errors';
import { INT32_MAX } from '../int32';
import { legacyFieldName, mapInput, type InputTable } from '../json/input-fields';
import type { HttpMethod, RouteInput } from '../route-table';
import type { XmlRoute } from './xml-format';
import { array, element, type XmlNode } from './xml-writer';

/** One resource of the XML interface: element names, writable elements, where it lives. */
export interface XmlResource {
  /** The element of one object (`user`, `project`); lists are its plural with `type="array"`. */
  readonly element: string;
  readonly collection: string;
  readonly entity: EntityName;
  readonly legacyEntity: LegacyEntity;
  /** The object's child elements, in the legacy order. */
  render(node: never): XmlNode[];
  readonly createFields: InputTable;
  readonly updateFields: InputTable;
  /** The path of one object, for the Location header of a create. */
  location(legacyId: number): string;
  /** Legacy names of GraphQL fields a service may name in errors beyond those of the tables. */
  readonly legacyNames?: Readonly<Record<string, string>>;
  /** Input rewrites no single field can express (legacy wall times). */
  adjustInput?(input: Record<string, unknown>): Record<string, unknown>;
}

type Scope = (params: RouteInput['params']) => Record<string, unknown>;

const noScope: Scope = () => ({});

/** An integer id from the path; anything else cannot exist, so it is 404 like a missing row. */
export function legacyId(value: string | undefined, entity: EntityName): number {
  const id = value !== undefined && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(id) || id < 1 || id > INT32_MAX)
    throw new AppError('NOT_FOUND', `${entity} not found`, { entity });
  return id;
}

function objectOf(resource: XmlResource, node: unknown): XmlNode {
  return element(resource.element, resource.render(node as never));
}

/**
 * The elements of a body whose root names this route's resource (`<company>` on a company path).
 * A body of another resource is refused whole: read for whatever elements it shares with this
 * one, a `<project>` posted to /companies.xml would create a company. No body at all is no fields.
 */
function elementsOf(
  resource: XmlResource,
  body: RouteInput['body'],
): Readonly<Record<string, unknown>> {
  const [root] = Object.keys(body);
  if (root === undefined) return {};
  if (root !== resource.element) {
    throw new AppError(
      'VALIDATION_FAILED',
      `The body's root element must be <${resource.element}> on this path`,
      { entity: resource.entity },
    );
  }
  return body[root] as Readonly<Record<string, unknown>>;
}

function input(
  resource: XmlResource,
  body: RouteInput['body'],
  fields: InputTable,
): Record<string, unknown> {
  const mapped = mapInput(resource.entity, elementsOf(resource, body), fields);
  return resource.adjustInput ? resource.adjustInput(mapped) : mapped;
}

function base(
  resource: XmlResource,
  method: HttpMethod,
  path: string,
  operation: string,
  summary: string,
) {
  return { method, path, operation, entity: resource.legacyEntity, docs: { summary } } as const;
}

export function xmlList(
  resource: XmlResource,
  path: string,
  operation: string,
  summary: string,
  scope: Scope = noScope,
): XmlRoute {
  return {
    ...base(resource, 'GET', path, operation, summary),
    variables: ({ params, ctx }) => ({ ...scope(params), first: ctx.config.pageSize.max }),
    render: (connection) => ({
      node: array(
        resource.collection,
        (connection as { nodes: unknown[] }).nodes.map((node) => objectOf(resource, node)),
      ),
    }),
  };
}

export function xmlShow(
  resource: XmlResource,
  path: string,
  operation: string,
  summary: string,
): XmlRoute {
  return {
    ...base(resource, 'GET', path, operation, summary),
    variables: ({ params }) => ({ legacyId: legacyId(params.id, resource.entity) }),
    render: (node) => ({ node: objectOf(resource, node) }),
  };
}

export function xmlCreate(
  resource: XmlResource,
  path: string,
  operation: string,
  summary: string,
  scope: Scope = noScope,
): XmlRoute {
  return {
    ...base(resource, 'POST', path, operation, summary),
    status: 201,
    variables: ({ params, body }) => ({
      input: { ...input(resource, body, resource.createFields), ...scope(params) },
    }),
    render: (node) => ({
      node: objectOf(resource, node),
      location: resource.location((node as { legacyId: number }).legacyId),
    }),
    legacyFieldName: (field) =>
      resource.legacyNames?.[field] ?? legacyFieldName(resource.createFields, field),
  };
}

export function xmlUpdate(
  resource: XmlResource,
  path: string,
  operation: string,
  summary: string,
): XmlRoute {
  return {
    ...base(resource, 'PUT', path, operation, summary),
    variables: ({ params, body }) => ({
      legacyId: legacyId(params.id, resource.entity),
      input: input(resource, body, resource.updateFields),
    }),
    render: (node) => ({ node: objectOf(resource, node) }),
    legacyFieldName: (field) =>
      resource.legacyNames?.[field] ?? legacyFieldName(resource.updateFields, field),
  };
}

export function xmlDelete(
  resource: XmlResource,
  path: string,
  operation: string,
  summary: string,
): XmlRoute {
  return {
    ...base(resource, 'DELETE', path, operation, summary),
    variables: ({ params }) => ({ legacyId: legacyId(params.id, resource.entity) }),
    render: (node) => ({ node: objectOf(resource, node) }),
  };
}

/**
 * Every route of `routes` whose path names one object in the singular (`/project/:id/shifts`,
 * `/company/:id`), again under Rails' plural (`/projects/:id/shifts`, `/companies/:id`), which is
 * what real clients build from the collection name. A segment before a path parameter is the
 * singular element of one of `resources`; `/staff/:id` is the same in both forms.
 */
export function withPluralAliases(
  routes: readonly XmlRoute[],
  resources: readonly XmlResource[],
): XmlRoute[] {
  const plurals = new Map(resources.map((resource) => [resource.element, resource.collection]));
  const pluralPath = (path: string) =>
    path
      .split('/')
      .map((segment, i, segments) =>
        segments[i + 1]?.startsWith(':') ? (plurals.get(segment) ?? segment) : segment,
      )
      .join('/');
  const aliases = routes
    .filter((route) => pluralPath(route.path) !== route.path)
    .map((route) => ({ ...route, path: pluralPath(route.path) }));
  return [...routes, ...aliases];
}

/** A POST that is not a create (punch in, punch out): 200 with the object. */
export function xmlAction(
  resource: XmlResource,
  path: string,
  operation: string,
  summary: string,
): XmlRoute {
  return {
    ...base(resource, 'POST', path, operation, summary),
    variables: ({ params }) => ({ legacyId: legacyId(params.id, resource.entity) }),
    render: (node) => ({ node: objectOf(resource, node) }),
  };
}
