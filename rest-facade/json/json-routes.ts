import { z } from 'zod';
import type { EntityName } from '../../src/core/errors';
import type { LegacyEntity } from '../errors';
import type { ColumnTable } from '../query/columns';
import { compileOrder } from '../query/order-parser';
import { compileWhere } from '../query/where-compiler';
import type { HttpMethod, RouteInput } from '../route-table';
import { legacyFieldName, mapInput, type InputTable } from './input-fields';
import type { JsonRoute } from './json-format';

/** One resource of the JSON interface: its wire form, its writable fields, its query columns. */
export interface JsonResource<Wire> {
  /** The key that wraps request bodies (`{"project": {...}}`). */
  readonly key: string;
  readonly entity: EntityName;
  readonly legacyEntity: LegacyEntity;
  /** The wire object; its JSON Schema goes into the OpenAPI document. */
  readonly wire: z.ZodType<Wire>;
  /** Maps the operation's answer (the fragment of `operations/fragments.graphql`) to the wire object. */
  render(node: never): Wire;
  readonly createFields: InputTable;
  readonly updateFields: InputTable;
  readonly columns: ColumnTable;
}

type Scope = (params: RouteInput['params']) => Record<string, unknown>;

/** Routes nested under a project or a company pass the parent to the operation. */
export const inProject: Scope = (params) => ({ projectId: params.project_uuid });
export const inCompany: Scope = (params) => ({ companyId: params.company_uuid });

const noScope: Scope = () => ({});

/** The where/order parameters of a list, naming the columns this resource allows. */
function queryParameters(columns: ColumnTable) {
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

function renderOne<W>(resource: JsonResource<W>) {
  return (node: unknown) => ({ response: resource.render(node as never) });
}

function base<W>(
  resource: JsonResource<W>,
  method: HttpMethod,
  path: string,
  operation: string,
  summary: string,
) {
  return { method, path, operation, entity: resource.legacyEntity, docs: { summary } } as const;
}

export function listRoute<W>(
  resource: JsonResource<W>,
  path: string,
  operation: string,
  summary: string,
  scope: Scope = noScope,
): JsonRoute {
  return {
    ...base(resource, 'GET', path, operation, summary),
    docs: {
      summary,
      response: { schema: resource.wire, list: true },
      queryParameters: queryParameters(resource.columns),
    },
    variables: ({ params, query, ctx }) => ({
      ...scope(params),
      filter: compileWhere(query.where, resource.columns),
      order: compileOrder(query.order, resource.columns),
      // Legacy clients know no paging: they get every matching row up to the server's cap.
      first: ctx.config.pageSize.max,
    }),
    render: (connection) => {
      const { nodes, totalCount } = connection as { nodes: never[]; totalCount: number };
      return { response: nodes.map((node) => resource.render(node)), count: totalCount };
    },
  };
}

export function showRoute<W>(
  resource: JsonResource<W>,
  path: string,
  operation: string,
  summary: string,
  scope: Scope = noScope,
): JsonRoute {
  return {
    ...base(resource, 'GET', path, operation, summary),
    docs: { summary, response: { schema: resource.wire, list: false } },
    variables: ({ params }) => ({ ...scope(params), id: params.uuid }),
    render: renderOne(resource),
  };
}

export function createRoute<W>(
  resource: JsonResource<W>,
  path: string,
  operation: string,
  summary: string,
  scope: Scope = noScope,
): JsonRoute {
  return {
    ...base(resource, 'POST', path, operation, summary),
    docs: {
      summary,
      requestBody: { bodyKey: resource.key, schema: resource.createFields },
      response: { schema: resource.wire, list: false },
    },
    variables: ({ params, body }) => ({
      input: {
        ...mapInput(resource.entity, bodyObject(resource.key, body), resource.createFields),
        ...scope(params),
      },
    }),
    render: renderOne(resource),
    legacyFieldName: (field) => legacyFieldName(resource.createFields, field),
  };
}

export function updateRoute<W>(
  resource: JsonResource<W>,
  path: string,
  operation: string,
  summary: string,
  scope: Scope = noScope,
): JsonRoute {
  return {
    ...base(resource, 'PUT', path, operation, summary),
    docs: {
      summary,
      requestBody: { bodyKey: resource.key, schema: resource.updateFields },
      response: { schema: resource.wire, list: false },
    },
    variables: ({ params, body }) => ({
      ...scope(params),
      id: params.uuid,
      input: mapInput(resource.entity, bodyObject(resource.key, body), resource.updateFields),
    }),
    render: renderOne(resource),
    legacyFieldName: (field) => legacyFieldName(resource.updateFields, field),
  };
}

export function deleteRoute<W>(
  resource: JsonResource<W>,
  path: string,
  operation: string,
  summary: string,
  scope: Scope = noScope,
): JsonRoute {
  return {
    ...base(resource, 'DELETE', path, operation, summary),
    docs: { summary, response: { schema: resource.wire, list: false } },
    variables: ({ params }) => ({ ...scope(params), id: params.uuid }),
    render: renderOne(resource),
  };
}

/** A route that is neither of the five REST acts (enable, punch in); its body fields are its own. */
export function actionRoute<W>(
  resource: JsonResource<W>,
  path: string,
  operation: string,
  summary: string,
  variables: (input: RouteInput, fields: Record<string, unknown>) => Record<string, unknown>,
  fields: InputTable = {},
): JsonRoute {
  return {
    ...base(resource, 'POST', path, operation, summary),
    docs: {
      summary,
      ...(Object.keys(fields).length
        ? { requestBody: { bodyKey: resource.key, schema: fields } }
        : {}),
      response: { schema: resource.wire, list: false },
    },
    variables: (input) =>
      variables(
        input,
        mapInput(
          resource.entity,
          { ...input.query, ...bodyObject(resource.key, input.body) },
          fields,
        ),
      ),
    render: renderOne(resource),
    legacyFieldName: (field) => legacyFieldName(fields, field),
  };
}
