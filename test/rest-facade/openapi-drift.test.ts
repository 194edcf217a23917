import fs from 'node:fs';
import path from 'node:path';
import { JSON_ROUTES } from '../../rest-facade';
import { CSV_ROUTES } from '../../rest-facade/downloads/download-routes';
import { jsonErrorBody } from '../../rest-facade/json/json-format';
import { LEGACY_ERRORS, type FacadeError } from '../../rest-facade/errors';
import {
  PAYMENT_REQUIRED,
  buildOpenApiDocument,
  errorBodySchema,
  formatOpenApiDocument,
  openApiPath,
  downloadOperationIds,
  uniqueOperationIds,
} from '../../rest-facade/openapi';
import { ERROR_CODES } from '../../src/core/errors';

const OPENAPI_FILE = path.join(__dirname, '..', '..', 'schema', 'openapi.json');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

const committedText = fs.readFileSync(OPENAPI_FILE, 'utf8');
const committed = JSON.parse(committedText) as Record<string, any>;

function operations(
  document: Record<string, any>,
): { path: string; method: string; operation: Record<string, any> }[] {
  return Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(
    ([p, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, operation]) => ({ path: p, method, operation })),
  );
}

/** Every `$ref` in a JSON value, with where it was found. */
function refs(value: unknown, at = '#'): { ref: string; at: string }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => refs(item, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === '$ref' && typeof inner === 'string'
      ? [{ ref: inner, at }]
      : refs(inner, `${at}/${key}`),
  );
}

function resolve(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

test('schema/openapi.json is what the route tables generate (run `npm run openapi:emit` after a change)', () => {
  // Compared as JSON with its key order, not as text, so that reformatting the file (`npm run
  // format`) is not drift while any change of content or order is.
  const generated = buildOpenApiDocument(JSON_ROUTES, CSV_ROUTES);
  if (JSON.stringify(committed) !== JSON.stringify(generated)) {
    const a = formatOpenApiDocument(committed).split('\n');
    const b = formatOpenApiDocument(generated).split('\n');
    const line = a.findIndex((text, i) => text !== b[i]);
    throw new Error(
      `schema/openapi.json is out of date: run \`npm run openapi:emit\` and commit the result.\n` +
        `First difference at line ${line + 1}:\n  committed: ${a[line] ?? '(end of file)'}\n  generated: ${b[line] ?? '(end of file)'}`,
    );
  }
});

test('the generated document is deterministic', () => {
  expect(formatOpenApiDocument(buildOpenApiDocument(JSON_ROUTES, CSV_ROUTES))).toBe(
    formatOpenApiDocument(buildOpenApiDocument(JSON_ROUTES, CSV_ROUTES)),
  );
});

test('the emitted text is pretty JSON with a trailing newline', () => {
  expect(formatOpenApiDocument({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}\n');
  expect(committedText.endsWith('}\n')).toBe(true);
});

describe('schema/openapi.json', () => {
  test('is OpenAPI 3.1 served under /api/1 with Basic, bearer or OAuth 1.0a authentication', () => {
    expect(committed.openapi).toBe('3.1.0');
    expect(committed.servers).toEqual([expect.objectContaining({ url: '/api/1' })]);
    expect(committed.components.securitySchemes.basic).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'basic' }),
    );
    expect(committed.components.securitySchemes.bearer).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    expect(committed.security).toEqual([{ basic: [] }, { bearer: [] }, { oauth1: [] }]);
  });

  test('has every route of JSON_ROUTES and CSV_ROUTES, and nothing else', () => {
    const ids = uniqueOperationIds(JSON_ROUTES);
    for (const route of JSON_ROUTES) {
      const operation = committed.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      expect({
        route: `${route.method} ${route.path}`,
        operationId: operation?.operationId,
      }).toEqual({
        route: `${route.method} ${route.path}`,
        operationId: ids.get(route),
      });
      expect(operation.summary).toBe(route.docs.summary);
    }
    expect(operations(committed)).toHaveLength(JSON_ROUTES.length + CSV_ROUTES.length);
  });

  test('the downloads answer CSV or XLSX, read their query parameters, and refuse in JSON', () => {
    const ids = downloadOperationIds(CSV_ROUTES);
    for (const route of CSV_ROUTES) {
      const operation = committed.paths[openApiPath(route.path, '')]?.get;
      expect({ path: route.path, operationId: operation?.operationId }).toEqual({
        path: route.path,
        operationId: ids.get(route),
      });
      expect(operation.summary).toBe(route.summary);
      expect(Object.keys(operation.responses['200'].content)).toEqual([
        route.format.contentType.split(';')[0],
      ]);
      const query = (operation.parameters as Record<string, any>[]).filter((p) => p.in === 'query');
      expect(query.map((p) => [p.name, p.required])).toEqual(
        route.queryParameters.map((p) => [p.name, p.required ?? false]),
      );
      for (const [status, response] of Object.entries<Record<string, any>>(operation.responses)) {
        if (status === '200') continue;
        expect(response.content).toEqual({
          'application/json': { schema: { $ref: '#/components/schemas/Error' } },
        });
      }
    }
    expect(CSV_ROUTES.map((route) => route.path)).toEqual([
      '/shifts.csv',
      '/shifts.xlsx',
      '/projects/:project_uuid/shifts.csv',
      '/projects/:project_uuid/shifts.xlsx',
      '/report.csv',
      '/report.xlsx',
      '/report.json',
      '/report.pdf',
    ]);
  });

  test('operationIds are unique', () => {
    const ids = operations(committed).map(({ operation }) => operation.operationId as string);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  test('every $ref resolves', () => {
    const all = refs(committed);
    expect(all.length).toBeGreaterThan(0);
    expect(all.filter(({ ref }) => resolve(committed, ref) === undefined)).toEqual([]);
  });

  test('every path parameter of a path template is declared, as a required uuid string', () => {
    for (const { path: p, operation } of operations(committed)) {
      const names = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = (operation.parameters as Record<string, any>[]).filter(
        (parameter) => parameter.in === 'path',
      );
      expect(declared.map((parameter) => parameter.name)).toEqual(names);
      for (const parameter of declared)
        expect(parameter).toEqual(
          expect.objectContaining({ required: true, schema: { type: 'string', format: 'uuid' } }),
        );
    }
  });

  test('lists answer {response: [...], count}, the others {response: X}; errors use the one Error schema', () => {
    for (const route of JSON_ROUTES) {
      const operation = committed.paths[openApiPath(route.path)][route.method.toLowerCase()];
      const envelope = operation.responses['200'].content['application/json'].schema;
      if (route.docs.response?.list) {
        expect(envelope.required).toEqual(['response', 'count']);
        expect(envelope.properties.response.type).toBe('array');
        expect(
          operation.parameters.map((parameter: any) => parameter.name ?? parameter.$ref),
        ).toEqual(
          expect.arrayContaining((route.docs.queryParameters ?? []).map((query) => query.name)),
        );
      } else {
        expect(envelope.required).toEqual(['response']);
      }
      const statuses = Object.keys(operation.responses);
      expect(statuses).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '405']));
      if (route.docs.requestBody) expect(statuses).toContain('422');
      for (const status of statuses.filter((s) => s !== '200')) {
        const response = operation.responses[status];
        const resolved = (response.$ref ? resolve(committed, response.$ref) : response) as Record<
          string,
          any
        >;
        expect(resolved.content['application/json'].schema).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
    }
  });

  test('the 402 table names operations the routes still run', () => {
    const operations = new Set<string>(JSON_ROUTES.map((route) => route.operation));
    expect(Object.keys(PAYMENT_REQUIRED).filter((name) => !operations.has(name))).toEqual([]);
  });

  test('staff create, update and enable document 402', () => {
    const byOperation = (name: string) => JSON_ROUTES.filter((route) => route.operation === name);
    for (const route of [
      ...byOperation('CreateStaff'),
      ...byOperation('UpdateStaff'),
      ...byOperation('EnableStaff'),
    ]) {
      expect(
        Object.keys(committed.paths[openApiPath(route.path)][route.method.toLowerCase()].responses),
      ).toContain('402');
    }
  });

  test('request bodies are the JSON object wrapped in the resource key, and form-encoded', () => {
    for (const route of JSON_ROUTES.filter((r) => r.docs.requestBody)) {
      const { bodyKey } = route.docs.requestBody!;
      const content =
        committed.paths[openApiPath(route.path)][route.method.toLowerCase()].requestBody.content;
      expect(content['application/json'].schema.required).toEqual([bodyKey]);
      const fields = resolve(
        committed,
        content['application/json'].schema.properties[bodyKey].$ref,
      ) as Record<string, any>;
      expect(Object.keys(fields.properties).sort()).toEqual(
        Object.keys(route.docs.requestBody!.schema).sort(),
      );
      expect(content['application/x-www-form-urlencoded'].schema).toEqual(
        content['application/json'].schema.properties[bodyKey],
      );
    }
  });
});

describe('the Error schema matches jsonErrorBody', () => {
  const route = JSON_ROUTES.find((r) => r.operation === 'CreateShift')!;

  test.each(ERROR_CODES.map((code) => [code]))('%s', (code) => {
    const body = jsonErrorBody({ code, message: 'Something' }, undefined);
    expect(errorBodySchema.parse(body)).toEqual(body);
    expect(body.error).toEqual(
      expect.objectContaining({
        status: LEGACY_ERRORS[code].status,
        title: LEGACY_ERRORS[code].title,
      }),
    );
  });

  test('with field errors, a query position and a parameter', () => {
    const errors: FacadeError[] = [
      {
        code: 'VALIDATION_FAILED',
        message: 'Invalid shift: projectId is required',
        entity: 'Shift',
        fieldErrors: [{ field: 'projectId', message: 'is required' }],
      },
      {
        code: 'BAD_REQUEST',
        message: 'where: unknown column "nope" at position 0',
        details: { parameter: 'where', position: 0 },
      },
      {
        code: 'BAD_REQUEST',
        message: 'JSONP needs a `callback` parameter',
        details: { parameter: 'callback' },
      },
    ];
    for (const error of errors) {
      const body = jsonErrorBody(error, route);
      expect(errorBodySchema.parse(body)).toEqual(body);
    }
    expect(jsonErrorBody(errors[0]!, route)).toEqual({
      error: expect.objectContaining({
        field_errors: [{ field: 'project_uuid', message: 'is required' }],
      }),
    });
  });
});
