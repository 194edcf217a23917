/**
 * A project's `default_tags` reads back exactly as written, on the JSON and XML interfaces and in
 * GraphQL (`defaultTagsText`), while punch-in applies the tags read from it (trimmed, blanks
 * dropped). Through HTTP, on a real database.
 */
import { parseXml, type XmlElement } from '../support/legacy-answers';
import { legacyClient } from '../support/legacy-client';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

let t: TestApp;
let owner: Credentials;
let companyId: string;
let companyLegacyId: number;

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
  const company = await t.gqlOk(
    owner,
    'mutation { createCompany(input: { name: "Tags Ltd", visibility: PUBLIC }) { company { id legacyId } } }',
  );
  ({ id: companyId, legacyId: companyLegacyId } = company.createCompany.company);
});
afterAll(() => t?.close());

const WRITTEN = 'urgent, client:acme,  Billable ';
const APPLIED = ['urgent', 'client:acme', 'Billable'];

const json = () => legacyClient(t, owner).json;

const xml = (method: 'get' | 'post' | 'put', path: string, body?: string) =>
  legacyClient(t, owner).xml(method, path, body);
const element = (doc: XmlElement, name: string) => doc.children.find((c) => c.name === name)!;

test('JSON: default_tags reads back as written in create, show, list and update; punch-in applies the tags in it', async () => {
  const created = await json().post('/projects.json', {
    project: { name: 'Exact', company_uuid: companyId, default_tags: WRITTEN },
  });
  expect(created.status).toBe(200);
  const uuid = created.body.response.uuid;
  expect(created.body.response.default_tags).toBe(WRITTEN);
  expect((await json().get(`/projects/${uuid}.json`)).body.response.default_tags).toBe(WRITTEN);
  const listed = (await json().get('/projects.json')).body.response.find(
    (p: { uuid: string }) => p.uuid === uuid,
  );
  expect(listed.default_tags).toBe(WRITTEN);
  // An update of another field keeps it; an update of it keeps the new text as written.
  expect(
    (await json().put(`/projects/${uuid}.json`, { project: { notes: 'n' } })).body.response
      .default_tags,
  ).toBe(WRITTEN);

  const punched = await json().post(`/projects/${uuid}/punch_in.json`, {});
  expect(punched.body.response.current_shift.tag_list).toEqual(APPLIED);
  expect(punched.body.response.shift_tag_list).toBe(APPLIED.join(','));

  expect(
    (await json().put(`/projects/${uuid}.json`, { project: { default_tags: ' a ,b,,' } })).body
      .response.default_tags,
  ).toBe(' a ,b,,');
  const graphql = await t.gqlOk(
    owner,
    'query($id: ID) { project(id: $id) { defaultTags defaultTagsText } }',
    { id: uuid },
  );
  expect(graphql.project).toEqual({ defaultTags: ['a', 'b'], defaultTagsText: ' a ,b,,' });
  expect(
    (await json().put(`/projects/${uuid}.json`, { project: { default_tags: null } })).body.response
      .default_tags,
  ).toBeNull();
});

test('XML: default_tags reads back as written; punch-in applies the tags in it', async () => {
  const created = await xml(
    'post',
    `/company/${companyLegacyId}/projects.xml`,
    `<project><name>Exact XML</name><default_tags>${WRITTEN}</default_tags></project>`,
  );
  expect(created.status).toBe(201);
  const id = element(parseXml(created.text), 'id').text;
  expect(element(parseXml(created.text), 'default_tags').text).toBe(WRITTEN);
  expect(
    element(parseXml((await xml('get', `/project/${id}.xml`)).text), 'default_tags').text,
  ).toBe(WRITTEN);
  expect(
    (
      await xml(
        'put',
        `/project/${id}.xml`,
        '<project><default_tags>d1, d2</default_tags></project>',
      )
    ).status,
  ).toBe(200);
  expect(
    element(parseXml((await xml('get', `/project/${id}.xml`)).text), 'default_tags').text,
  ).toBe('d1, d2');

  expect((await xml('post', `/project/${id}/punch_in.xml`)).status).toBe(200);
  const shifts = parseXml((await xml('get', `/project/${id}/shifts.xml`)).text).children;
  expect(shifts.map((shift) => element(shift, 'taglist').text)).toEqual(['d1,d2']);
});

test('GraphQL: defaultTagsText is kept as written and sets defaultTags; a list sets the text', async () => {
  const create =
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { project { id defaultTags defaultTagsText } } }';
  const made = (
    await t.gqlOk(owner, create, {
      input: { name: 'Exact GraphQL', companyId, defaultTagsText: WRITTEN },
    })
  ).createProject.project;
  expect(made).toMatchObject({ defaultTags: APPLIED, defaultTagsText: WRITTEN });

  const update =
    'mutation($id: ID!, $input: ProjectInput!) { updateProject(input: { project: { id: $id }, patch: $input }) { project { defaultTags defaultTagsText } } }';
  const listed = (await t.gqlOk(owner, update, { id: made.id, input: { defaultTags: ['x', 'y'] } }))
    .updateProject.project;
  expect(listed).toEqual({ defaultTags: ['x', 'y'], defaultTagsText: 'x,y' });
  expect((await json().get(`/projects/${made.id}.json`)).body.response.default_tags).toBe('x,y');

  const both = await t.gql(owner, update, {
    id: made.id,
    input: { defaultTags: ['x'], defaultTagsText: 'y' },
  });
  expect(both.errors?.[0]?.extensions).toMatchObject({
    code: 'VALIDATION_FAILED',
    fieldErrors: [{ field: 'defaultTagsText' }],
  });
  const tooLong = await t.gql(owner, update, {
    id: made.id,
    input: { defaultTagsText: `ok, ${'t'.repeat(65)}` },
  });
  expect(tooLong.errors?.[0]?.extensions).toMatchObject({
    code: 'VALIDATION_FAILED',
    fieldErrors: [{ field: 'defaultTagsText', message: 'tag 2 must be at most 64 characters' }],
  });
});
