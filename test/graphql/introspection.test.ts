import fs from 'node:fs';
import path from 'node:path';
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { printSortedSchema } from '../../src/graphql/schema';
import { basicAuthorization, GraphQLSocket } from '../support/graphql-ws-session';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

let t: TestApp;
let owner: Credentials;
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
});
afterAll(() => t?.close());

/**
 * What codegen, graphql-inspector and every IDE see: the schema the running service describes
 * about itself must be the committed one, printed the way `npm run schema:emit` prints it.
 */
describe('introspection of the running service', () => {
  it('describes exactly the committed schema/schema.graphql', async () => {
    const introspection = await t.gqlOk<IntrospectionQuery>(
      owner,
      getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
        oneOf: true,
      }),
    );
    const committed = fs.readFileSync(path.join(__dirname, '../../schema/schema.graphql'), 'utf8');
    expect(printSortedSchema(buildClientSchema(introspection))).toBe(committed);
  });

  it('reports an input object as INPUT_OBJECT', async () => {
    const data = await t.gqlOk(owner, '{ __type(name: "ReportInput") { kind name } }');
    expect(data.__type).toEqual({ kind: 'INPUT_OBJECT', name: 'ReportInput' });
  });

  it('answers __typename beside introspection and ordinary fields', async () => {
    const data = await t.gqlOk(
      owner,
      '{ __typename viewer { __typename } __type(name: "ProjectFilter") { kind inputFields { name } } }',
    );
    expect(data.__typename).toBe('Query');
    expect(data.viewer.__typename).toBe('Viewer');
    expect(data.__type.kind).toBe('INPUT_OBJECT');
    expect(data.__type.inputFields.map((f: { name: string }) => f.name)).toContain('and');
  });

  it('answers from the real schema over a WebSocket too', async () => {
    const socket = new GraphQLSocket(await t.listen(), basicAuthorization(owner));
    try {
      await socket.connected();
      const result = await socket.run('{ __type(name: "ReportInput") { kind } }');
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({ __type: { kind: 'INPUT_OBJECT' } });
    } finally {
      await socket.dispose();
    }
  });
});
