import { z } from 'zod';
import { ERROR_CODES } from '../src/core/errors';
import { LEGACY_ERRORS } from './errors';
import type { CsvRoute } from './downloads/download-routes';
import { CSV } from './csv/csv-download';
import { JSON_DOWNLOAD } from './csv/json-download';
import type { InputTable } from './json/input-fields';
import { CALLBACK, CALLBACK_MAX, type JsonRoute } from './json/json-format';
import type { HttpMethod } from './route-table';

/**
 * The OpenAPI 3.1 description of the JSON interface under /api/1, generated from the route tables
 * so that it cannot describe a route, a field or a status the code does not have. The committed
 * copy is `schema/openapi.json` (`npm run openapi:emit`); a test fails when the two drift apart.
 *
 * The output is deterministic: paths keep the order of the route tables (the order of the interface
 * document, which is how a reader looks for them), methods the order OpenAPI tools show them in, and
 * every map whose order means nothing (components, status codes, media types) is sorted.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const SCHEMAS = '#/components/schemas/';

/** The body of every JSON (and JSONP) error, as `jsonErrorBody` in json/json-format.ts builds it. */
export const errorBodySchema = z
  .object({
    error: z
      .object({
        code: z.enum(ERROR_CODES).meta({
          description: 'The stable catalogue code; clients should branch on it, not on the message',
        }),
        status: z
          .literal(sortedUnique(Object.values(LEGACY_ERRORS).map((form) => form.status)))
          // zod says "number" for numeric literals; statuses are integers.
          .meta({
            type: 'integer',
            description: 'The HTTP status, repeated for JSONP clients, which cannot read it',
          }),
        title: z.enum(
          sortedUnique(Object.values(LEGACY_ERRORS).map((form) => form.title)) as [
            string,
            ...string[],
          ],
        ),
        message: z
          .string()
          .meta({ description: 'Human-readable; with field errors it lists them all' }),
        field_errors: z
          .array(
            z
              .object({
                field: z.string().meta({ description: 'The legacy field name' }),
                message: z.string(),
              })
              .strict(),
          )
          .optional()
          .meta({ description: 'Every invalid field of a 422, by its legacy name' }),
        position: z.number().int().min(0).optional().meta({
          description: 'Offset (0-based, UTF-16 units) of the error in the `where` or `order` text',
        }),
        parameter: z
          .string()
          .optional()
          .meta({ description: 'The query parameter at fault: `where`, `order` or `callback`' }),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'Error' });

/** The JSONP callback rule of json/json-format.ts, which does not export it. */

/**
 * Statuses the route tables cannot say: which acts run into a plan limit. Keyed by operation name,
 * so the nested forms of an act inherit them (a test checks every key still names a route).
 */
export const PAYMENT_REQUIRED: Readonly<Record<string, string>> = {
  CreateStaff:
    "Over the plan's staff maximum (`PAYMENT_REQUIRED`), or the plan allows no staff (`STAFF_NOT_ALLOWED`); nothing is stored",
  UpdateStaff:
    "Activating the staff member would exceed the plan's staff maximum (`PAYMENT_REQUIRED`, `STAFF_NOT_ALLOWED`); nothing is stored",
  EnableStaff:
    "Over the plan's staff maximum (`PAYMENT_REQUIRED`), or the plan allows no staff (`STAFF_NOT_ALLOWED`); nothing is stored",
  CreateShift: "The plan's maximum of entered time is used up (`MAX_TIME`)",
  UpdateShift: "The plan's maximum of entered time is used up (`MAX_TIME`)",
  PunchIn: "The plan's maximum of entered time is used up (`MAX_TIME`)",
};

/** The order Swagger UI and most generators list an item's operations in. */
const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'PUT', 'POST', 'DELETE'];

const SUFFIX_NOTE =
  'Every path is written here with its `.json` suffix, which is optional: `/staff` and `/staff.json` are the same resource. ' +
  '`.jsonp` (or the query parameter `format=jsonp`) answers the same envelope as JSONP, wrapped in the function named by `callback`.';

export function buildOpenApiDocument(
  routes: readonly JsonRoute[],
  csvRoutes: readonly CsvRoute[],
): object {
  const components = new ComponentSchemas();
  components.addZod(errorBodySchema);
  const operationIds = uniqueOperationIds(routes);
  const paths: Record<string, JsonObject> = {};
  const tags: string[] = [];

  for (const route of [...routes].sort(byPathThenMethod(routes))) {
    const path = openApiPath(route.path);
    const tag = route.docs.response
      ? components.addZod(zodSchema(route.docs.response.schema, route))
      : 'Other';
    if (!tags.includes(tag)) tags.push(tag);
    paths[path] ??= {
      description: `Also served as \`${openApiPath(route.path, '')}\` (no suffix) and as JSONP at \`${openApiPath(route.path, '.jsonp')}\`.`,
    };
    paths[path][route.method.toLowerCase()] = operation(
      route,
      operationIds.get(route)!,
      tag,
      components,
    );
  }
  const downloadIds = downloadOperationIds(csvRoutes);
  for (const route of csvRoutes) {
    if (!tags.includes(route.tag)) tags.push(route.tag);
    paths[openApiPath(route.path, '')] = { get: csvOperation(route, downloadIds.get(route)!) };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'timetrack JSON API',
      version: '1',
      description: [
        'The legacy JSON interface, served by a facade over the GraphQL API. The guide is `docs/json-api.md`.',
        SUFFIX_NOTE,
        'The downloads (`*.csv`, and the same rows as Excel workbooks at `*.xlsx`; a report also as `report.json` and `report.pdf`) are streamed page by page; they have no suffix-less or JSONP form.',
        'Authentication is HTTP Basic, an OAuth 2.0 bearer token, or an OAuth 1.0a signature (header or query string) on every request; the guide is `docs/authentication.md`. A JSONP request is readable by any web page, so it ignores the Authorization header and cookies and is authenticated only by credentials in its own URL (`access_token` or a query-string signature).',
      ].join('\n\n'),
    },
    servers: [{ url: '/api/1', description: 'Relative to the service address' }],
    security: [{ basic: [] }, { bearer: [] }, { oauth1: [] }],
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      parameters: sortKeys(PARAMETERS),
      responses: sortKeys(errorResponses()),
      schemas: components.sorted(),
      securitySchemes: {
        basic: {
          type: 'http',
          scheme: 'basic',
          description:
            'The login and password of a user of the account. A failure is 401 with `WWW-Authenticate: Basic`.',
        },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An OAuth 2.0 access token from `/oauth/token` or the implicit flow; also accepted as the `access_token` query parameter.',
        },
        oauth1: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description:
            'An OAuth 1.0a (RFC 5849) HMAC-SHA1 or HMAC-SHA256 signature in the `Authorization: OAuth` header or the query string.',
        },
      },
    },
  };
}

/**
 * Pretty JSON with a trailing newline. `npm run openapi:emit` passes it through prettier before
 * writing `schema/openapi.json`, which only changes the layout (short arrays on one line).
 */
export function formatOpenApiDocument(document: object): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** `/projects/:uuid` as `/projects/{uuid}.json`. */
export function openApiPath(path: string, suffix = '.json'): string {
  return `${path.replace(/:(\w+)/g, '{$1}')}${suffix}`;
}

/**
 * The route's operation name, unless another route shares it: then the nested forms say their
 * parent (`ListProjectsOfCompany`, `ShowShiftOfProject`) and the flat form keeps the plain name.
 */
export function uniqueOperationIds<T extends { readonly operation: string; readonly path: string }>(
  routes: readonly T[],
): Map<T, string> {
  const uses = new Map<string, number>();
  for (const route of routes) uses.set(route.operation, (uses.get(route.operation) ?? 0) + 1);
  const ids = new Map<T, string>();
  const taken = new Set<string>();
  for (const route of routes) {
    const id =
      uses.get(route.operation)! > 1 ? route.operation + scopeSuffix(route.path) : route.operation;
    // A clash left here would be a route table the naming rule does not cover; say so rather than
    // emit a document tools reject.
    if (taken.has(id)) throw new Error(`two facade routes would share the operationId ${id}`);
    taken.add(id);
    ids.set(route, id);
  }
  return ids;
}

/** The operationIds of the downloads: a workbook or a PDF runs the same operation as its CSV, and says so. */
export function downloadOperationIds(routes: readonly CsvRoute[]): Map<CsvRoute, string> {
  const named = routes.map((route) => ({
    route,
    path: route.path,
    operation:
      route.format === CSV
        ? route.operation
        : `${route.operation}As${route.format.extension.charAt(0).toUpperCase()}${route.format.extension.slice(1)}`,
  }));
  const ids = uniqueOperationIds(named);
  return new Map(named.map((entry) => [entry.route, ids.get(entry)!]));
}

/** `Of` and the parents named by the path's parameters other than the route's own `:uuid`. */
function scopeSuffix(path: string): string {
  const parents = [...path.matchAll(/:(\w+)/g)]
    .map((match) => match[1]!)
    .filter((name) => name !== 'uuid');
  return parents.map((name) => `Of${pascal(name.replace(/_uuid$/, ''))}`).join('');
}

function pascal(snake: string): string {
  return snake
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** Routes grouped by path, in the order each path first appears; methods in METHOD_ORDER. */
function byPathThenMethod(routes: readonly JsonRoute[]) {
  const firstSeen = new Map<string, number>();
  routes.forEach((route, index) => {
    if (!firstSeen.has(route.path)) firstSeen.set(route.path, index);
  });
  return (a: JsonRoute, b: JsonRoute) =>
    firstSeen.get(a.path)! - firstSeen.get(b.path)! ||
    METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method);
}

/** Action routes (`/staff/:uuid/enable`, `/projects/:uuid/punch_in`) also read their fields from the query. */
function isAction(route: JsonRoute): boolean {
  return route.method === 'POST' && /\/:uuid\/[a-z_]+$/.test(route.path);
}

function operation(
  route: JsonRoute,
  operationId: string,
  tag: string,
  components: ComponentSchemas,
): JsonObject {
  const { docs } = route;
  const list = docs.response?.list ?? false;
  const parameters: Json[] = [...route.path.matchAll(/:(\w+)/g)].map((match) =>
    pathParameter(match[1]!),
  );
  for (const query of docs.queryParameters ?? []) {
    parameters.push({
      name: query.name,
      in: 'query',
      required: false,
      description: query.description,
      schema: { type: 'string' },
    });
  }
  const body = docs.requestBody ? requestBody(route, operationId, components) : undefined;
  if (body && isAction(route)) {
    for (const name of Object.keys(inputTable(docs.requestBody!.schema, route))) {
      parameters.push({
        name,
        in: 'query',
        required: false,
        description: `The same as \`${name}\` in the body (a body value wins); old clients send it here with no body at all.`,
        schema: { type: 'string' },
      });
    }
  }
  if (IDEMPOTENT_OPERATIONS.test(route.operation))
    parameters.push({ $ref: '#/components/parameters/idempotencyKey' });
  parameters.push(
    { $ref: '#/components/parameters/callback' },
    { $ref: '#/components/parameters/format' },
  );

  return {
    operationId,
    summary: docs.summary,
    description: describe(route, list),
    tags: [tag],
    parameters,
    ...(body ? { requestBody: body.requestBody } : {}),
    responses: responses(route, tag, list),
  };
}

function describe(route: JsonRoute, list: boolean): string {
  const lines = [`Runs the GraphQL operation \`${route.operation}\`.`];
  if (list) {
    lines.push(
      route.docs.queryParameters?.length
        ? 'Filter with `where` and sort with `order` (docs/json-api.md, "Querying lists"); an invalid expression is 400 with the character position.'
        : 'Takes no `where` or `order`.',
      'There is no paging: the answer holds every matching row up to the server cap `PAGE_SIZE_MAX` (5000 by default), and `count` is the number of all matching rows.',
    );
  }
  if (route.method === 'POST' && !isAction(route))
    lines.push(
      'Answers 200 (not 201) with the created object. A `uuid` of your own is kept; without one the service makes one.',
    );
  if (route.method === 'PUT') lines.push('Merges: fields left out of the body keep their values.');
  if (route.method === 'DELETE')
    lines.push('Answers 200 with the object as it was before the delete.');
  if (route.docs.requestBody) {
    lines.push(
      'Fields the body names that are not listed (read-only fields such as totals, or unknown ones) are ignored, so a client may send back an object it read.',
    );
  }
  return lines.join('\n\n');
}

function pathParameter(name: string): JsonObject {
  return {
    name,
    in: 'path',
    required: true,
    description:
      name === 'uuid'
        ? 'The uuid of the object; a malformed uuid is 404'
        : `The uuid of the parent ${name.replace(/_uuid$/, '')}; 404 if there is none or it is hidden from the caller`,
    schema: { type: 'string', format: 'uuid' },
  };
}

function requestBody(
  route: JsonRoute,
  operationId: string,
  components: ComponentSchemas,
): { requestBody: JsonObject } {
  const { bodyKey, schema } = route.docs.requestBody!;
  const table = inputTable(schema, route);
  const fields: JsonObject = {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(table).map(([name, field]) => [name, field.kind.schema as Json]),
    ),
  };
  const name = components.addInput(`${route.operation}Fields`, `${operationId}Fields`, fields);
  const ref = { $ref: SCHEMAS + name };
  return {
    requestBody: {
      required: !isAction(route),
      description:
        `JSON: the fields wrapped in \`${bodyKey}\`; a flat object (fields at the top level) is read too when \`${bodyKey}\` is not an object. ` +
        `Form: the fields flat (\`notes=...\`) or Rails-nested (\`${bodyKey}[notes]=...\`).`,
      content: {
        'application/json': {
          schema: { type: 'object', properties: { [bodyKey]: ref }, required: [bodyKey] },
        },
        'application/x-www-form-urlencoded': {
          // Form values are text; every field kind reads its text form ("true", "12", "a,b").
          schema: ref,
        },
      },
    },
  };
}

function responses(route: JsonRoute, schemaId: string, list: boolean): JsonObject {
  // Routes without body fields (enable, disable) ignore any body, so they cannot fail on one.
  const hasBody = route.docs.requestBody !== undefined;
  const refs: Record<string, Json> = {
    '200': success(route, schemaId, list),
    '400': {
      $ref: `#/components/responses/${list && route.docs.queryParameters?.length ? 'BadQuery' : 'BadRequest'}`,
    },
    '401': { $ref: '#/components/responses/Unauthorized' },
    '403': { $ref: '#/components/responses/Forbidden' },
    '429': { $ref: '#/components/responses/TooManyRequests' },
    '404': { $ref: '#/components/responses/NotFound' },
    '405': { $ref: '#/components/responses/MethodNotAllowed' },
    '5XX': { $ref: '#/components/responses/ServerError' },
  };
  const payment = PAYMENT_REQUIRED[route.operation];
  if (payment) refs['402'] = { description: payment, content: errorContent() };
  if (hasBody) {
    refs['413'] = { $ref: '#/components/responses/PayloadTooLarge' };
    refs['415'] = { $ref: '#/components/responses/UnsupportedMediaType' };
    refs['422'] = { $ref: '#/components/responses/Invalid' };
  }
  return sortKeys(refs);
}

function success(route: JsonRoute, schemaId: string, list: boolean): JsonObject {
  if (!route.docs.response) return { description: 'Done' };
  const ref = { $ref: SCHEMAS + schemaId };
  const envelope: JsonObject = list
    ? {
        type: 'object',
        properties: {
          response: { type: 'array', items: ref },
          count: {
            type: 'integer',
            minimum: 0,
            description: 'How many rows match, whether or not all are in `response`',
          },
        },
        required: ['response', 'count'],
        additionalProperties: false,
      }
    : {
        type: 'object',
        properties: { response: ref },
        required: ['response'],
        additionalProperties: false,
      };
  return {
    description: list
      ? `The matching ${schemaId} objects in the list envelope`
      : `The ${schemaId} in the envelope`,
    content: {
      'application/javascript': {
        schema: {
          type: 'string',
          description: 'JSONP: `/**/ typeof cb === \'function\' && cb({"response": ...});`',
        },
      },
      'application/json': { schema: envelope },
    },
  };
}

/** The JSON form of a download's rows: the list envelope, an object per row of the CSV file. */
const DOWNLOAD_ROWS_SCHEMA: JsonObject = {
  type: 'object',
  required: ['response', 'count'],
  properties: {
    response: {
      type: 'array',
      items: {
        type: 'object',
        description: 'A row of the CSV file, keyed by its column names',
        additionalProperties: { type: ['string', 'number', 'null'] },
      },
    },
    count: { type: 'integer', description: 'The rows in `response`' },
  },
};

/**
 * A CSV download: a file streamed page by page, so its errors are JSON only when they come before
 * the first byte; JSONP does not apply.
 */
function csvOperation(route: CsvRoute, operationId: string): JsonObject {
  const refused = (description: string, headers?: JsonObject): JsonObject => ({
    description,
    ...(headers ? { headers } : {}),
    content: { 'application/json': { schema: { $ref: `${SCHEMAS}Error` } } },
  });
  return {
    operationId,
    summary: route.summary,
    description: [
      `Runs the GraphQL operation \`${route.operation}\` once per page and streams the rows as they are read, so the file has no row cap.`,
      route.columns,
      'A refusal comes before the first byte, as the JSON error envelope; a failure after it cuts the connection, so a partial file is never taken for a whole one.',
    ].join('\n\n'),
    tags: [route.tag],
    parameters: [
      ...[...route.path.matchAll(/:(\w+)/g)].map((match) => pathParameter(match[1]!)),
      ...route.queryParameters.map((query) => ({
        name: query.name,
        in: 'query',
        required: query.required ?? false,
        description: query.description,
        schema: { type: 'string' },
      })),
    ],
    responses: sortKeys({
      ...(route.path.includes(':')
        ? {
            '404': refused(
              'The parent in the path does not exist or is hidden from the caller (`NOT_FOUND`)',
            ),
          }
        : {}),
      '200': {
        description: route.format.description,
        ...(route.format.attachment
          ? {
              headers: {
                'Content-Disposition': {
                  schema: { type: 'string' },
                  description: `attachment; filename="${route.path.split('/').pop()}"`,
                },
              },
            }
          : {}),
        content: {
          [route.format.contentType.split(';')[0]!]: {
            schema:
              route.format === JSON_DOWNLOAD
                ? DOWNLOAD_ROWS_SCHEMA
                : { type: 'string', ...(route.format === CSV ? {} : { format: 'binary' }) },
          },
        },
      },
      '400': refused(
        'A missing or invalid parameter (`parameter` names it; `position` for `where` and `order`)',
      ),
      '401': refused('No credentials, or wrong ones (`UNAUTHENTICATED`)', {
        'WWW-Authenticate': {
          schema: { type: 'string' },
          description: 'Basic realm="timetrack", charset="UTF-8"',
        },
      }),
      '422': refused(
        'A value the query refuses (`VALIDATION_FAILED`): an impossible date, a range or a zone',
      ),
      '429': refused(
        'Too many failed sign-ins of this login or from this address (`TOO_MANY_REQUESTS`)',
        {
          'Retry-After': {
            schema: { type: 'integer' },
            description: 'Seconds until the next attempt is allowed',
          },
        },
      ),
      '5XX': refused(
        '`INTERNAL_SERVER_ERROR` or `SERVICE_UNAVAILABLE`, before the first byte; after it the connection is cut',
      ),
    }),
  };
}

function errorContent(): JsonObject {
  return {
    'application/javascript': {
      schema: { type: 'string', description: 'JSONP: the same error body passed to the callback' },
    },
    'application/json': { schema: { $ref: `${SCHEMAS}Error` } },
  };
}

function errorResponses(): Record<string, Json> {
  const response = (description: string, headers?: JsonObject): JsonObject => ({
    description,
    ...(headers ? { headers } : {}),
    content: errorContent(),
  });
  return {
    BadQuery: response(
      'An invalid `where` or `order` (`parameter` and `position` say where), a JSONP request without a valid `callback`, or a body that is not well-formed JSON or form data',
    ),
    BadRequest: response(
      'A JSONP request without a valid `callback`, or a body that is not well-formed JSON or form data',
    ),
    Unauthorized: response(
      'No credentials, wrong ones, a bad OAuth token or signature, or a disabled user (`UNAUTHENTICATED`); also JSONP without credentials in its URL',
      {
        'WWW-Authenticate': {
          schema: { type: 'string' },
          description: 'Basic realm="timetrack", charset="UTF-8" (not sent with JSONP)',
        },
      },
    ),
    Forbidden: response(
      "The caller's role may not do this to something it can see (`READ_DENIED`, `CREATE_DENIED`, `UPDATE_DENIED`, `DELETE_DENIED`); or a browser sent a POST, PUT or DELETE from a page of another web site (`CROSS_SITE_REQUEST`)",
    ),
    NotFound: response(
      'No such path, or the object (or its parent in the path) does not exist, belongs to another account or is hidden from the caller (`NOT_FOUND`)',
    ),
    MethodNotAllowed: response('The path exists but not with this method (`METHOD_NOT_ALLOWED`)', {
      Allow: { schema: { type: 'string' }, description: 'The methods the path has' },
    }),
    TooManyRequests: response(
      'Too many failed sign-ins of this login or from this address (`TOO_MANY_REQUESTS`)',
      {
        'Retry-After': {
          schema: { type: 'integer' },
          description: 'Seconds until the next attempt is allowed',
        },
      },
    ),
    PayloadTooLarge: response('The body is larger than `BODY_LIMIT_BYTES` (`PAYLOAD_TOO_LARGE`)'),
    UnsupportedMediaType: response(
      'The body is neither `application/json` nor `application/x-www-form-urlencoded` (`UNSUPPORTED_MEDIA_TYPE`)',
    ),
    Invalid: response(
      'A field is invalid or a domain rule refused the act (`VALIDATION_FAILED` with `field_errors`, `PROJECT_INACTIVE`, `PUNCHED_IN`, `PUNCHED_OUT`, `USER_NOT_ALLOWED`)',
    ),
    ServerError: response(
      '`INTERNAL_SERVER_ERROR` (500, details masked) or `SERVICE_UNAVAILABLE` (503, the database cannot be reached)',
    ),
  };
}

/** The operations an Idempotency-Key makes safe to retry (src/modules/writes/idempotency.ts). */
const IDEMPOTENT_OPERATIONS = /^(Create\w+|PunchIn|PunchOut)$/;

const PARAMETERS: Record<string, Json> = {
  idempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a retry safe: the same key with the same request writes once and answers with the same record, even when sent many times at once; the same key with another request is 422. 1–255 visible ASCII characters (a UUID is a good key), remembered for `IDEMPOTENCY_TTL_S` (a day by default).',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  },
  callback: {
    name: 'callback',
    in: 'query',
    required: false,
    description:
      'JSONP only (and then required): the function to call, a JavaScript identifier path such as `handle` or `app.handle`',
    schema: { type: 'string', maxLength: CALLBACK_MAX, pattern: CALLBACK.source },
  },
  format: {
    name: 'format',
    in: 'query',
    required: false,
    description: '`jsonp` selects JSONP like the `.jsonp` suffix; other values are ignored',
    schema: { type: 'string' },
  },
};

/** The named schemas of `components.schemas`: zod wire schemas by their id, and request field tables. */
class ComponentSchemas {
  private readonly schemas = new Map<string, JsonObject>();

  /** Adds a zod schema with a `.meta({ id })` and every named schema inside it; returns the id. */
  addZod(schema: z.ZodType): string {
    const converted = z.toJSONSchema(schema, { target: 'draft-2020-12' }) as JsonObject;
    const root =
      typeof converted.$ref === 'string' ? converted.$ref.replace('#/$defs/', '') : undefined;
    if (!root) throw new Error('every response schema of the JSON routes needs .meta({ id })');
    const defs = (converted.$defs ?? {}) as Record<string, Json>;
    for (const [id, definition] of Object.entries(defs))
      this.put(id, tidy(definition) as JsonObject);
    return root;
  }

  /**
   * Adds the field table of a request body under the operation's name when the routes sharing it
   * agree (flat and nested forms of one act), else under the route's own operationId.
   */
  addInput(shared: string, own: string, schema: JsonObject): string {
    const existing = this.schemas.get(shared);
    if (existing === undefined || sameJson(existing, schema)) {
      this.schemas.set(shared, schema);
      return shared;
    }
    this.put(own, schema);
    return own;
  }

  sorted(): JsonObject {
    return sortKeys(Object.fromEntries(this.schemas));
  }

  private put(id: string, schema: JsonObject): void {
    const existing = this.schemas.get(id);
    if (existing !== undefined && !sameJson(existing, schema))
      throw new Error(`two different schemas are named ${id}`);
    this.schemas.set(id, schema);
  }
}

/**
 * zod's output made fit for components: refs point into components, and the ±2^53 bounds zod puts
 * on every `.int()` go, since they say nothing about the wire and would bury the real constraints.
 */
function tidy(value: Json): Json {
  if (Array.isArray(value)) return value.map(tidy);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$schema' || key === '$id') continue;
    if (key === '$ref' && typeof inner === 'string') out[key] = inner.replace('#/$defs/', SCHEMAS);
    else if (
      (key === 'minimum' && inner === Number.MIN_SAFE_INTEGER) ||
      (key === 'maximum' && inner === Number.MAX_SAFE_INTEGER)
    )
      continue;
    else out[key] = tidy(inner);
  }
  return out;
}

function zodSchema(schema: object, route: JsonRoute): z.ZodType {
  if (schema instanceof z.ZodType) return schema;
  throw new Error(`the response schema of ${route.method} ${route.path} is not a zod schema`);
}

function inputTable(schema: object, route: JsonRoute): InputTable {
  const fields = Object.values(schema as Record<string, unknown>);
  const valid = fields.every((field) => {
    const candidate = field as { to?: unknown; kind?: { schema?: unknown } } | null;
    return typeof candidate?.to === 'string' && typeof candidate.kind?.schema === 'object';
  });
  if (!valid)
    throw new Error(`the request body of ${route.method} ${route.path} is not an input table`);
  return schema as InputTable;
}

function sortKeys<T extends Json>(map: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function sameJson(a: Json, b: Json): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function sortedUnique<T extends string | number>(values: readonly T[]): [T, ...T[]] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) as [T, ...T[]];
}
