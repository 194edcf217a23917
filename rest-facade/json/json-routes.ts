import { z } from 'zod';
import { WrittenNodes } from '../../src/core/node-writer';
import { jsonNodeWriter, type JsonMembers } from './json-members';
import type { EntityName } from '../../src/core/errors';
import type { LegacyEntity } from '../errors';
import type { ColumnTable } from '../query/columns';
import { compileOrderText } from '../query/order-parser';
import { compileWhere } from '../query/where-compiler';
import type { OperationName } from '../operation-types';
import { scoped, type HttpMethod, type RouteInput, type Scope } from '../route-table';
import { firstPage, listPaging } from '../list-pages';
import { found } from '../run-operation';
import { legacyFieldName, mapInput, type InputTable } from './input-fields';

/** One resource of the JSON interface: its wire form, its writable fields, its query columns. */
export interface JsonResource<
  Node,
  Wire,
  Order extends string = string,
  Key extends string = string,
> {
  /**
   * The key that wraps request bodies (`{"project": {...}}`), which is also the name of the object
   * in its mutations' inputs and payloads (`updateProject(input: { project })` answers `{ project }`).
   */
  readonly key: Key;
  /**
   * `value` under the key: `(value) => ({ project: value })`. Written out by each resource because
   * TypeScript types a computed key as any string, and the route table checks variables by name.
   */
  readonly named: <T>(value: T) => { readonly [K in Key]: T };
  readonly entity: EntityName;
  readonly legacyEntity: LegacyEntity;
  /** The wire object; its JSON Schema goes into the OpenAPI document. */
  readonly wire: z.ZodType<Wire>;
  /**
   * Maps one object of the operation's answer to the wire object. `Node` is the generated type of
   * its fragment (operations/fragments.graphql), so it can read only fields the fragment selects.
   */
  readonly render: (node: Node) => Wire;
  /**
   * `render` as the members of the wire object, where that is all it does: a list's nodes are
   * then written straight from the rows of a read compiled to SQL (`jsonNodeWriter`).
   */
  readonly members?: JsonMembers;
  readonly createFields: InputTable;
  readonly updateFields: InputTable;
  /** `Order` is the generated order enum of the resource's list. */
  readonly columns: ColumnTable<Order>;
}

/**
 * A list's page as every list operation selects it; counted on the first page. Its nodes are
 * written already where the resource gave its members and the read compiled.
 */
interface Connection<Node> {
  readonly totalCount?: number;
  readonly nodes: readonly Node[] | WrittenNodes;
}

/** Routes nested under a project or a company pass the parent to the operation. */
export const inProject = (params: RouteInput['params']) => ({ projectId: params.project_uuid });
export const inCompany = (params: RouteInput['params']) => ({ companyId: params.company_uuid });

/**
 * The parent of a nested route as the reference a mutation's input takes (`{ inProject: { id } }`)
 * for the routes that change an existing object.
 */
export const inProjectRef = (params: RouteInput['params']) => ({
  inProject: { id: params.project_uuid },
});
export const inCompanyRef = (params: RouteInput['params']) => ({
  inCompany: { id: params.company_uuid },
});

/** The where/order parameters of a list, naming the columns this resource allows. */
export function queryParameters(columns: ColumnTable) {
  const orderable = Object.keys(columns).filter((column) => columns[column]!.order);
  // An example a reader would write: a field of the resource rather than its uuid.
  const example = orderable.find((column) => columns[column]!.type !== 'uuid') ?? orderable[0];
  return [
    {
      name: 'where',
      description: `Filter expression over ${Object.keys(columns).join(', ')} (see docs/json-api.md).`,
    },
    {
      name: 'order',
      description: `Order expression over ${orderable.join(', ')}, e.g. \`${example} desc\`.`,
    },
  ];
}

/** The object of the body: wrapped in the resource key, or flat (form-encoded punch-in). */
function bodyObject(key: string, body: RouteInput['body']): Record<string, unknown> {
  const wrapped = body[key];
  return wrapped !== null && typeof wrapped === 'object' && !Array.isArray(wrapped)
    ? (wrapped as Record<string, unknown>)
    : body;
}

/** The answer of a route about one object: the object in the envelope. */
function renderOne<Node, W>(resource: JsonResource<Node, W>) {
  return (node: Node | null) => ({ response: resource.render(found(node, resource.entity)) });
}

/** The answer of a mutation route: the resource's object of the payload, in the envelope. */
function renderPayload<Node, W, K extends string>(resource: JsonResource<Node, W, string, K>) {
  return (payload: { readonly [P in K]: Node | null }) =>
    renderOne(resource)(payload[resource.key]);
}

function base<Node, W, N extends OperationName>(
  resource: JsonResource<Node, W>,
  method: HttpMethod,
  path: string,
  operation: N,
) {
  return { method, path, operation, entity: resource.legacyEntity };
}

// Each builder returns a route typed by its own variables and answer; the route table, typed
// `JsonRoute[]`, checks it against the generated types of the operation it names.

export function listRoute<Node, W, O extends string, N extends OperationName, S = object>(
  resource: JsonResource<Node, W, O>,
  path: string,
  operation: N,
  summary: string,
  scope?: Scope<S>,
) {
  const variables = (input: RouteInput) => ({
    ...scoped(scope, input.params),
    filter: compileWhere(input.query.where, resource.columns),
    order: compileOrderText(input.query.order, resource.columns),
    ...firstPage(input, true),
  });
  return {
    ...base(resource, 'GET', path, operation),
    docs: {
      summary,
      response: { schema: resource.wire, list: true },
      queryParameters: queryParameters(resource.columns),
    },
    variables,
    render: ({ nodes, totalCount }: Connection<Node>) => ({
      response: nodes instanceof WrittenNodes ? nodes : nodes.map((node) => resource.render(node)),
      count: totalCount,
    }),
    paging: listPaging<ReturnType<typeof variables>>(),
    ...(resource.members ? { nodeWriter: jsonNodeWriter(resource.members) } : {}),
  };
}

export function showRoute<Node, W, N extends OperationName, S = object>(
  resource: JsonResource<Node, W>,
  path: string,
  operation: N,
  summary: string,
  scope?: Scope<S>,
) {
  return {
    ...base(resource, 'GET', path, operation),
    docs: { summary, response: { schema: resource.wire, list: false } },
    variables: ({ params }: RouteInput) => ({ ...scoped(scope, params), id: params.uuid }),
    render: renderOne(resource),
  };
}

export function createRoute<Node, W, K extends string, N extends OperationName, S = object>(
  resource: JsonResource<Node, W, string, K>,
  path: string,
  operation: N,
  summary: string,
  scope?: Scope<S>,
) {
  return {
    ...base(resource, 'POST', path, operation),
    docs: {
      summary,
      requestBody: { bodyKey: resource.key, schema: resource.createFields },
      response: { schema: resource.wire, list: false },
    },
    variables: ({ params, body }: RouteInput) => ({
      input: {
        ...mapInput(resource.entity, bodyObject(resource.key, body), resource.createFields),
        ...scoped(scope, params),
      },
    }),
    render: renderPayload(resource),
    legacyFieldName: (field: string) => legacyFieldName(resource.createFields, field),
  };
}

export function updateRoute<Node, W, K extends string, N extends OperationName, S = object>(
  resource: JsonResource<Node, W, string, K>,
  path: string,
  operation: N,
  summary: string,
  parent?: Scope<S>,
) {
  return {
    ...base(resource, 'PUT', path, operation),
    docs: {
      summary,
      requestBody: { bodyKey: resource.key, schema: resource.updateFields },
      response: { schema: resource.wire, list: false },
    },
    variables: ({ params, body }: RouteInput) => ({
      input: {
        ...resource.named({ id: params.uuid }),
        ...scoped(parent, params),
        patch: mapInput(resource.entity, bodyObject(resource.key, body), resource.updateFields),
      },
    }),
    render: renderPayload(resource),
    legacyFieldName: (field: string) => legacyFieldName(resource.updateFields, field),
  };
}

export function deleteRoute<Node, W, K extends string, N extends OperationName, S = object>(
  resource: JsonResource<Node, W, string, K>,
  path: string,
  operation: N,
  summary: string,
  parent?: Scope<S>,
) {
  return {
    ...base(resource, 'DELETE', path, operation),
    docs: { summary, response: { schema: resource.wire, list: false } },
    variables: ({ params }: RouteInput) => ({
      input: { ...resource.named({ id: params.uuid }), ...scoped(parent, params) },
    }),
    render: renderPayload(resource),
  };
}

/**
 * A route that is neither of the five REST acts (enable, punch in); its body fields are its own.
 * It answers the resource's object of the mutation's payload.
 */
export function actionRoute<Node, W, K extends string, N extends OperationName, V>(
  resource: JsonResource<Node, W, string, K>,
  path: string,
  operation: N,
  summary: string,
  variables: (input: RouteInput, fields: Readonly<Record<string, unknown>>) => V,
  fields: InputTable = {},
) {
  return {
    ...base(resource, 'POST', path, operation),
    docs: {
      summary,
      ...(Object.keys(fields).length
        ? { requestBody: { bodyKey: resource.key, schema: fields } }
        : {}),
      response: { schema: resource.wire, list: false },
    },
    variables: (input: RouteInput) =>
      variables(
        input,
        mapInput(
          resource.entity,
          { ...input.query, ...bodyObject(resource.key, input.body) },
          fields,
        ),
      ),
    render: renderPayload(resource),
    legacyFieldName: (field: string) => legacyFieldName(fields, field),
  };
}
