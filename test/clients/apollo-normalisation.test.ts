import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Apollo Client 4 with its normalised cache, pointed at the service as an app would point it:
 * every object the API answers is stored once, under `<__typename>:<id>`, whichever query brought
 * it, so a list and a lookup of the same project share one entry and an update through one shows
 * through the other.
 */
let t: TestApp;
let owner: Credentials;
let url: string;
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
  url = `${await t.listen()}/graphql`;
});
afterAll(() => t?.close());

const PROJECTS = gql`
  query Projects {
    projects(first: 10) {
      nodes {
        id
        name
      }
    }
  }
`;
const PROJECT = gql`
  query Project($id: ID!) {
    project(id: $id) {
      id
      name
    }
  }
`;
const PROJECT_WITH_COMPANY = gql`
  query ProjectWithCompany($id: ID!) {
    project(id: $id) {
      id
      name
      company {
        id
        name
      }
    }
  }
`;
const RENAME = gql`
  mutation Rename($id: ID!, $name: String!) {
    updateProject(input: { project: { id: $id }, patch: { name: $name } }) {
      project {
        id
        name
      }
    }
  }
`;

interface ProjectsData {
  projects: { nodes: { __typename: 'Project'; id: string; name: string }[] };
}
interface ProjectData {
  project: { __typename: 'Project'; id: string; name: string } | null;
}

/** A client of its own (an empty cache) that counts the requests it sends. */
function newClient() {
  const sent: string[] = [];
  const authorization = `Basic ${Buffer.from(`${owner.login}:${owner.password}`).toString('base64')}`;
  const cache = new InMemoryCache({
    typePolicies: {
      Query: {
        fields: {
          // A cache redirect, as Apollo documents it: `project(id:)` names the object
          // `Project:<id>`, so a lookup of a project a list has brought is answered from the
          // cache. It works because `id` alone identifies a project in every answer.
          project: (existing, { args, toReference }) =>
            existing ??
            (args?.id ? toReference({ __typename: 'Project', id: args.id }) : undefined),
        },
      },
    },
  });
  const client = new ApolloClient({
    cache,
    link: new HttpLink({
      uri: url,
      headers: { authorization },
      fetch: (input, init) => {
        sent.push(JSON.parse(String(init?.body)).operationName);
        return fetch(input, init);
      },
    }),
  });
  return { client, cache, sent };
}

async function newProjects(names: string[]): Promise<string[]> {
  const company = await t.create(owner, 'createCompany', { name: 'Normal Ltd' });
  const ids: string[] = [];
  for (const name of names)
    ids.push((await t.create(owner, 'createProject', { name, companyId: company.id })).id);
  return ids;
}

describe('Apollo Client InMemoryCache normalises the answers', () => {
  it('stores each project once, shared by the list and the lookup, and shows an update through both', async () => {
    const [alpha, beta] = await newProjects(['Alpha', 'Beta']);
    const { client, cache, sent } = newClient();

    const list = await client.query<ProjectsData>({ query: PROJECTS });
    expect(list.data?.projects.nodes.map((p) => p.id)).toEqual(
      expect.arrayContaining([alpha, beta]),
    );
    const stored = cache.extract();
    expect(stored[`Project:${alpha}`]).toMatchObject({
      __typename: 'Project',
      id: alpha,
      name: 'Alpha',
    });
    expect(stored[`Project:${beta}`]).toMatchObject({
      __typename: 'Project',
      id: beta,
      name: 'Beta',
    });
    // The list holds references to those entries, not copies.
    const listed = (stored.ROOT_QUERY as Record<string, any>)['projects({"first":10})'].nodes;
    expect(listed).toEqual(expect.arrayContaining([{ __ref: `Project:${alpha}` }]));

    // The lookup of a project the list brought is answered from the cache, without a request.
    const one = await client.query<ProjectData>({
      query: PROJECT,
      variables: { id: alpha },
      fetchPolicy: 'cache-only',
    });
    expect(one.data?.project).toEqual({ __typename: 'Project', id: alpha, name: 'Alpha' });
    expect(sent).toEqual(['Projects']);

    // A lookup from the network that selects more merges into the same entry.
    const withCompany = await client.query({
      query: PROJECT_WITH_COMPANY,
      variables: { id: beta },
      fetchPolicy: 'network-only',
    });
    expect(withCompany.data).toMatchObject({
      project: { id: beta, company: { name: 'Normal Ltd' } },
    });
    const projectKeys = Object.keys(cache.extract()).filter((key) => key.startsWith('Project:'));
    expect(projectKeys.sort()).toEqual([`Project:${alpha}`, `Project:${beta}`].sort());

    // A mutation's answer updates the one entry: the list and the lookup both show the new name.
    await client.mutate({ mutation: RENAME, variables: { id: beta, name: 'Beta renamed' } });
    expect(sent).toEqual(['Projects', 'ProjectWithCompany', 'Rename']);
    const listAfter = client.readQuery<ProjectsData>({ query: PROJECTS });
    expect(listAfter?.projects.nodes.find((p) => p.id === beta)?.name).toBe('Beta renamed');
    const lookupAfter = client.readQuery<ProjectData>({ query: PROJECT, variables: { id: beta } });
    expect(lookupAfter?.project?.name).toBe('Beta renamed');
  });

  it('updates a watched list when a lookup from the network brings a newer value', async () => {
    const [gamma] = await newProjects(['Gamma']);
    const { client } = newClient();
    const seen: string[] = [];
    let renamedSeen!: () => void;
    const renamed = new Promise<void>((resolve) => (renamedSeen = resolve));
    const watched = client.watchQuery<ProjectsData>({ query: PROJECTS }).subscribe((result) => {
      const name = result.data?.projects?.nodes?.find((p) => p.id === gamma)?.name;
      if (name && seen.at(-1) !== name) seen.push(name);
      if (name === 'Gamma 2') renamedSeen();
    });
    try {
      await client.query({ query: PROJECTS, fetchPolicy: 'network-only' });
      await t.gqlOk(
        owner,
        `mutation { updateProject(input: { project: { id: "${gamma}" }, patch: { name: "Gamma 2" } }) { project { id } } }`,
      );
      const fresh = await client.query<ProjectData>({
        query: PROJECT,
        variables: { id: gamma },
        fetchPolicy: 'network-only',
      });
      expect(fresh.data?.project?.name).toBe('Gamma 2');
      // The watcher hears of it without asking the server again (jest's timeout bounds the wait).
      await renamed;
      expect(seen).toEqual(['Gamma', 'Gamma 2']);
    } finally {
      watched.unsubscribe();
      client.stop();
    }
  });
});
