import { AppError, type EntityName } from '../../src/core/errors';
import { WrittenNodes, type NodeWriter } from '../../src/core/node-writer';
import type { LegacyEntity } from '../errors';
import { INT32_MAX } from '../int32';
import { legacyFieldName, mapInput, type InputTable } from '../json/input-fields';
import type { OperationName } from '../operation-types';
import { scoped, type HttpMethod, type RouteInput, type Scope } from '../route-table';
import { firstPage, listPaging } from '../list-pages';
import { found } from '../run-operation';
import type { XmlRoute } from './xml-format';
import { array, element, type XmlNode } from './xml-writer';

/** The element names of an XML resource: `<project>`, and `<projects type="array">` for a list. */
export interface XmlElementNames {
  /** The element of one object (`user`, `project`); lists are its plural with `type="array"`. */
  readonly element: string;
  readonly collection: string;
}

/** What every object of the XML interface has: its integer id. */
interface LegacyObject {
  readonly legacyId: number;
}

/**
 * One resource of the XML interface: element names, writable elements, where it lives. `Node` is
 * the generated type of its fragment (operations/fragments.graphql).
 */
export interface XmlResource<
  Node extends LegacyObject,
  Key extends string = string,
> extends XmlElementNames {
  /** The object's name in its mutations' inputs and payloads (`staff` for the `<user>` element). */
  readonly key: Key;
  /** `value` under the key, written out per resource (see JsonResource.named). */
  readonly named: <T>(value: T) => { readonly [K in Key]: T };
  readonly entity: EntityName;
  readonly legacyEntity: LegacyEntity;
  /** The object's child elements, in the legacy order. */
  readonly render: (node: Node) => XmlNode[];
  /**
   * The same as a list's items written from a reader of the node's fields, where the resource
   * gives it: a list's items are then written straight from the rows of a read compiled to SQL.
   */
  readonly writer?: NodeWriter;
  readonly createFields: InputTable;
  readonly updateFields: InputTable;
  /** The path of one object, for the Location header of a create. */
  location(legacyId: number): string;
  /** Legacy names of GraphQL fields a service may name in errors beyond those of the tables. */
  readonly legacyNames?: Readonly<Record<string, string>>;
  /** Input rewrites no single field can express (legacy wall times). */
  adjustInput?(input: Record<string, unknown>): Record<string, unknown>;
}

/** A resource of any kind of object, for what reads a resource without rendering one. */
type AnyXmlResource = XmlResource<never>;

/** An integer id from the path; anything else cannot exist, so it is 404 like a missing row. */
export function legacyId(value: string | undefined, entity: EntityName): number {
  const id = value !== undefined && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(id) || id < 1 || id > INT32_MAX)
    throw new AppError('NOT_FOUND', `${entity} not found`, { entity });
  return id;
}

function objectOf<Node extends LegacyObject>(resource: XmlResource<Node>, node: Node): XmlNode {
  return element(resource.element, resource.render(node));
}

/**
 * The elements of a body whose root names this route's resource (`<company>` on a company path).
 * A body of another resource is refused whole: read for whatever elements it shares with this
 * one, a `<project>` posted to /companies.xml would create a company. No body at all is no fields.
 */
function elementsOf(
  resource: AnyXmlResource,
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
  resource: AnyXmlResource,
  body: RouteInput['body'],
  fields: InputTable,
): Record<string, unknown> {
  const mapped = mapInput(resource.entity, elementsOf(resource, body), fields);
  return resource.adjustInput ? resource.adjustInput(mapped) : mapped;
}

function base<N extends OperationName>(
  resource: AnyXmlResource,
  method: HttpMethod,
  path: string,
  operation: N,
  summary: string,
) {
  return { method, path, operation, entity: resource.legacyEntity, docs: { summary } };
}

// Each builder returns a route typed by its own variables and answer; the route table, typed
// `XmlRoute[]`, checks it against the generated types of the operation it names.

export function xmlList<Node extends LegacyObject, N extends OperationName, S>(
  resource: XmlResource<Node>,
  path: string,
  operation: N,
  summary: string,
  scope?: Scope<S>,
) {
  // The XML lists show no count: no page counts.
  const variables = (input: RouteInput) => ({
    ...scoped(scope, input.params),
    ...firstPage(input, false),
  });
  return {
    ...base(resource, 'GET', path, operation, summary),
    variables,
    render: ({ nodes }: { readonly nodes: readonly Node[] | WrittenNodes }) =>
      nodes instanceof WrittenNodes
        ? { collection: resource.collection, items: nodes }
        : {
            node: array(
              resource.collection,
              nodes.map((node) => objectOf(resource, node)),
            ),
          },
    paging: listPaging<ReturnType<typeof variables>>(),
    ...(resource.writer ? { nodeWriter: resource.writer } : {}),
  };
}

export function xmlShow<Node extends LegacyObject, N extends OperationName>(
  resource: XmlResource<Node>,
  path: string,
  operation: N,
  summary: string,
) {
  return {
    ...base(resource, 'GET', path, operation, summary),
    variables: ({ params }: RouteInput) => ({ legacyId: legacyId(params.id, resource.entity) }),
    render: renderOne(resource),
  };
}

export function xmlCreate<Node extends LegacyObject, K extends string, N extends OperationName, S>(
  resource: XmlResource<Node, K>,
  path: string,
  operation: N,
  summary: string,
  scope?: Scope<S>,
) {
  return {
    ...base(resource, 'POST', path, operation, summary),
    docs: { summary, requestBody: { bodyKey: resource.element, schema: resource.createFields } },
    status: 201,
    variables: ({ params, body }: RouteInput) => ({
      input: { ...input(resource, body, resource.createFields), ...scoped(scope, params) },
    }),
    render: (payload: { readonly [P in K]: Node | null }) => {
      const node = found<Node>(payload[resource.key], resource.entity);
      return { node: objectOf(resource, node), location: resource.location(node.legacyId) };
    },
    legacyFieldName: (field: string) =>
      resource.legacyNames?.[field] ?? legacyFieldName(resource.createFields, field),
  };
}

export function xmlUpdate<Node extends LegacyObject, K extends string, N extends OperationName>(
  resource: XmlResource<Node, K>,
  path: string,
  operation: N,
  summary: string,
) {
  return {
    ...base(resource, 'PUT', path, operation, summary),
    docs: { summary, requestBody: { bodyKey: resource.element, schema: resource.updateFields } },
    variables: ({ params, body }: RouteInput) => ({
      input: {
        ...resource.named({ legacyId: legacyId(params.id, resource.entity) }),
        patch: input(resource, body, resource.updateFields),
      },
    }),
    render: renderPayload(resource),
    legacyFieldName: (field: string) =>
      resource.legacyNames?.[field] ?? legacyFieldName(resource.updateFields, field),
  };
}

export function xmlDelete<Node extends LegacyObject, K extends string, N extends OperationName>(
  resource: XmlResource<Node, K>,
  path: string,
  operation: N,
  summary: string,
) {
  return {
    ...base(resource, 'DELETE', path, operation, summary),
    variables: ({ params }: RouteInput) => ({
      input: resource.named({ legacyId: legacyId(params.id, resource.entity) }),
    }),
    render: renderPayload(resource),
  };
}

/** The answer of a route about one object: the object as the document's root. */
function renderOne<Node extends LegacyObject>(resource: XmlResource<Node>) {
  return (node: Node | null) => ({ node: objectOf(resource, found(node, resource.entity)) });
}

/** The answer of a mutation route: the resource's object of the payload. */
function renderPayload<Node extends LegacyObject, K extends string>(
  resource: XmlResource<Node, K>,
) {
  return (payload: { readonly [P in K]: Node | null }) =>
    renderOne(resource)(payload[resource.key]);
}

/**
 * Every route of `routes` whose path names one object in the singular (`/project/:id/shifts`,
 * `/company/:id`), again under Rails' plural (`/projects/:id/shifts`, `/companies/:id`), which is
 * what real clients build from the collection name. A segment before a path parameter is the
 * singular element of one of `resources`; `/staff/:id` is the same in both forms.
 */
export function withPluralAliases(
  routes: readonly XmlRoute[],
  resources: readonly XmlElementNames[],
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

/**
 * A POST that is not a create (punch in, punch out): 200 with the resource's object of the
 * mutation's payload. The input names the object of the path (`{ project: { legacyId } }`).
 */
export function xmlAction<Node extends LegacyObject, K extends string, N extends OperationName>(
  resource: XmlResource<Node, K>,
  path: string,
  operation: N,
  summary: string,
) {
  return {
    ...base(resource, 'POST', path, operation, summary),
    variables: ({ params }: RouteInput) => ({
      input: resource.named({ legacyId: legacyId(params.id, resource.entity) }),
    }),
    render: renderPayload(resource),
  };
}
