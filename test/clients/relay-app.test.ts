import {
  Environment,
  Network,
  RecordSource,
  Store,
  fetchQuery,
  type GraphQLResponse,
} from 'relay-runtime';
import { compileRelay } from '../support/relay';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * A small Relay app as Relay builds it (issue 34 item 1): one component per fragment, each spread
 * into its parent, lists as `@connection`, and `@refetchable` fragments on Query, Project and
 * Shift. relay-compiler writes the queries; relay-runtime runs every one of them against the
 * service. The dashboard's queries nest their fields 9 deep through 5 fragment spreads (and the
 * inline fragments Relay adds); a depth limit that counted fragments as levels found 19 > 12 and
 * refused them.
 */
const APP: Record<string, string> = {
  'Dashboard.js': `
graphql\`
  query DashboardQuery {
    ...Dashboard_query
  }
\`;
graphql\`
  fragment Dashboard_query on Query
  @refetchable(queryName: "DashboardRefetchQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 5 }, after: { type: "String" }) {
    projects(first: $first, after: $after, order: [{ field: NAME }])
    @connection(key: "Dashboard_projects") {
      edges {
        node {
          id
          ...ProjectShifts_project
        }
      }
    }
  }
\`;
`,
  'ProjectShifts.js': `
graphql\`
  fragment ProjectShifts_project on Project
  @refetchable(queryName: "ProjectShiftsRefetchQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 5 }, cursor: { type: "String" }) {
    name
    shifts(first: $count, after: $cursor) @connection(key: "ProjectShifts_shifts") {
      edges {
        node {
          ...ShiftRow_shift
        }
      }
    }
  }
\`;
`,
  'ShiftRow.js': `
graphql\`
  fragment ShiftRow_shift on Shift @refetchable(queryName: "ShiftRowRefetchQuery") {
    id
    start
    stop
    notes
    activity {
      name
    }
    project {
      ...ProjectBadge_project
    }
  }
\`;
`,
  'ProjectBadge.js': `
graphql\`
  fragment ProjectBadge_project on Project {
    name
    company {
      ...CompanyName_company
    }
  }
\`;
`,
  'CompanyName.js': `
graphql\`
  fragment CompanyName_company on Company {
    name
  }
\`;
`,
};

let t: TestApp;
let owner: Credentials;
let projectId: string;
let shiftId: string;
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
  const company = await t.create(owner, 'createCompany', {
    name: 'Relay Co',
    visibility: 'PUBLIC',
  });
  projectId = (await t.create(owner, 'createProject', { name: 'Relay', companyId: company.id })).id;
  const activity = await t.create(owner, 'createActivity', { name: 'coding', projectId });
  shiftId = (
    await t.create(owner, 'createShift', {
      projectId,
      activityId: activity.id,
      start: '2026-11-02T09:00:00Z',
      stop: '2026-11-02T10:00:00Z',
      notes: 'deep',
    })
  ).id;
});
afterAll(() => t?.close());

/** A Relay environment whose network is the service over HTTP; every answer is kept. */
function relayEnvironment(who: Credentials) {
  const answers = new Map<string, { data?: unknown; errors?: unknown }>();
  const network = Network.create(async (params, variables) => {
    const res = await t.gql(who, params.text!, variables);
    answers.set(params.name, res.errors ? { errors: res.errors } : { data: res.data });
    return { data: res.data ?? null, errors: res.errors } as GraphQLResponse;
  });
  const environment = new Environment({ network, store: new Store(new RecordSource()) });
  return { environment, answers };
}

test('every query relay-compiler generates for the app runs, however deep its fragments nest', async () => {
  const build = compileRelay(APP);
  expect({ status: build.status, output: build.status === 0 ? '' : build.output }).toEqual({
    status: 0,
    output: '',
  });
  const queries = [...build.requests.values()].filter((r) => r.params.operationKind === 'query');
  expect(queries.map((q) => q.params.name).sort()).toEqual([
    'DashboardQuery',
    'DashboardRefetchQuery',
    'ProjectShiftsRefetchQuery',
    'ShiftRowRefetchQuery',
  ]);
  // The refetch queries of a Node's fragment read it by `node(id:)`.
  const ids: Record<string, string> = {
    ProjectShiftsRefetchQuery: projectId,
    ShiftRowRefetchQuery: shiftId,
  };
  const { environment, answers } = relayEnvironment(owner);
  for (const query of queries) {
    const name = query.params.name;
    const variables = name in ids ? { id: ids[name] } : {};
    await fetchQuery(environment, query, variables)
      .toPromise()
      .catch(() => undefined); // Relay rejects an answer of errors only: the answers below say why.
  }
  // Each answer is data, and reaches the shift through all the fragments.
  const reached = [...answers].map(([name, answer]) => [
    name,
    answer.data ? JSON.stringify(answer.data).includes(shiftId) : answer,
  ]);
  expect(Object.fromEntries(reached)).toEqual(
    Object.fromEntries(queries.map((q) => [q.params.name, true])),
  );
});
