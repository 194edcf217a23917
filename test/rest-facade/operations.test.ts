import fs from 'node:fs';
import path from 'node:path';
import {
  Kind,
  buildSchema,
  getNamedType,
  isInputObjectType,
  isNonNullType,
  parse,
  typeFromAST,
  validate,
  type OperationDefinitionNode,
} from 'graphql';
import { JSON_ROUTES } from '../../rest-facade';
import { CSV_OPERATIONS } from '../../rest-facade/downloads/download-routes';
import type { InputTable } from '../../rest-facade/json/input-fields';
import { OperationRegistry } from '../../rest-facade/operation-registry';
import type { RouteInput } from '../../rest-facade/route-table';
import { XML_ROUTES } from '../../rest-facade/routes/xml.routes';

const schema = buildSchema(
  fs.readFileSync(path.join(__dirname, '..', '..', 'schema', 'schema.graphql'), 'utf8'),
);
const registry = OperationRegistry.load();
const names = registry.names();

function definitionOf(name: string): OperationDefinitionNode {
  const document = parse(registry.get(name).source);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation) throw new Error(`${name} has no operation`);
  return operation;
}

test('the registry holds the documents of rest-facade/operations', () => {
  expect(names.length).toBeGreaterThan(0);
});

test.each(names.map((name) => [name]))('%s validates against schema/schema.graphql', (name) => {
  const errors = validate(schema, parse(registry.get(name).source));
  expect(errors.map((error) => error.message)).toEqual([]);
});

/** Both route tables, each route named by its format, method and path. */
const ROUTES = [
  ...JSON_ROUTES.map((route) => [`JSON ${route.method} ${route.path}`, route] as const),
  ...XML_ROUTES.map((route) => [`XML ${route.method} ${route.path}`, route] as const),
];

test('every route names an operation of the registry', () => {
  const missing = ROUTES.filter(([, route]) => !names.includes(route.operation)).map(
    ([name, route]) => `${name} → ${route.operation}`,
  );
  expect(missing).toEqual([]);
});

test('every operation of the registry is used by some route (no dead documents)', () => {
  const used = new Set<string>([...ROUTES.map(([, route]) => route.operation), ...CSV_OPERATIONS]);
  expect(names.filter((name) => !used.has(name))).toEqual([]);
});

describe('route variables fit their operation', () => {
  // Enough of a request context for the translations, which read only the page-size cap.
  const ctx = { config: { pageSize: { default: 100, max: 5000 } } } as unknown as RouteInput['ctx'];
  // The path parameters of both tables: uuids of the JSON paths, integer ids of the XML ones.
  const params = {
    uuid: '00000000-0000-4000-8000-000000000001',
    company_uuid: '00000000-0000-4000-8000-000000000002',
    project_uuid: '00000000-0000-4000-8000-000000000003',
    id: '1',
    company_id: '2',
    project_id: '3',
  };

  test.each(ROUTES)('%s', (_name, route) => {
    const operation = definitionOf(route.operation);
    const declared = new Map(
      operation.variableDefinitions?.map((v) => [v.variable.name.value, v]) ?? [],
    );
    const variables: Record<string, unknown> = route.variables({
      params,
      query: {},
      body: {},
      ctx,
    });

    // A variable the operation does not declare would be dropped silently by GraphQL.
    expect(Object.keys(variables).filter((name) => !declared.has(name))).toEqual([]);
    const required = [...declared.values()].filter(
      (v) => isNonNullType(typeFromAST(schema, v.type as never)) && !v.defaultValue,
    );
    expect(
      required.map((v) => v.variable.name.value).filter((name) => variables[name] === undefined),
    ).toEqual([]);

    const inputDefinition = declared.get('input');
    const inputType = inputDefinition
      ? getNamedType(typeFromAST(schema, inputDefinition.type as never))
      : undefined;
    const fields = inputType && isInputObjectType(inputType) ? inputType.getFields() : {};
    // What the path scopes into the input (`projectId` of a nested create) must be a field of it.
    const input = (variables.input ?? {}) as Record<string, unknown>;
    expect(Object.keys(input).filter((name) => !Object.hasOwn(fields, name))).toEqual([]);

    // Every legacy body field lands in a field of the `$input` type (of its `patch` for an
    // update, which names the object beside the changes), or in a variable of its own.
    if (!route.docs.requestBody) return;
    const patchType = fields.patch ? getNamedType(fields.patch.type) : undefined;
    const bodyFields = patchType && isInputObjectType(patchType) ? patchType.getFields() : fields;
    const table = route.docs.requestBody.schema as InputTable;
    const unmapped = Object.entries(table)
      .filter(([, field]) => !Object.hasOwn(bodyFields, field.to) && !declared.has(field.to))
      .map(([legacy, field]) => `${legacy} → ${field.to}`);
    expect(unmapped).toEqual([]);
  });
});
