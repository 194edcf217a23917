import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import { filter, firstValueFrom } from 'rxjs';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Apollo Client 4 with InMemoryCache and `relayStylePagination()` (only the field named, keyArgs
 * as the helper's defaults) over HTTP against the service: pages merge in the cache, a row added
 * before the cursor between pages neither repeats nor hides one, and `last/before` reads backwards.
 */
let t: TestApp;
let url: string;
let owner: Credentials;
let companyId: string;
beforeAll(async () => {
  t = await startTestApp();
  url = await t.listen();
  owner = await t.newAccount();
  companyId = (await t.create(owner, 'createCompany', { name: 'Acme', visibility: 'PUBLIC' })).id;
  for (const name of ['b1', 'b2', 'b3', 'b4', 'b5'])
    await t.create(owner, 'createProject', { name, companyId });
});
afterAll(() => t?.close());

const PROJECTS = gql`
  query Projects($first: Int, $after: String, $last: Int, $before: String) {
    projects(first: $first, after: $after, last: $last, before: $before, order: [{ field: NAME }]) {
      totalCount
      edges {
        cursor
        node {
          id
          name
        }
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
    }
  }
`;

interface Page {
  projects: {
    totalCount: number;
    edges: { cursor: string; node: { id: string; name: string } }[];
    pageInfo: {
      hasNextPage: boolean;
      hasPreviousPage: boolean;
      startCursor: string | null;
      endCursor: string | null;
    };
  };
}

function apollo() {
  return new ApolloClient({
    link: new HttpLink({
      uri: `${url}/graphql`,
      headers: {
        authorization: `Basic ${Buffer.from(`${owner.login}:${owner.password}`).toString('base64')}`,
      },
    }),
    cache: new InMemoryCache({
      typePolicies: { Query: { fields: { projects: relayStylePagination() } } },
    }),
  });
}

const names = (page: Page) => page.projects.edges.map((edge) => edge.node.name);

async function firstResult(query: ReturnType<ApolloClient['watchQuery']>): Promise<Page> {
  const result = await firstValueFrom(query.pipe(filter((r) => r.dataState === 'complete')));
  return result.data as Page;
}

test('fetchMore with after merges page 2, unmoved by a row added before the cursor', async () => {
  const client = apollo();
  const query = client.watchQuery({ query: PROJECTS, variables: { first: 2 } });
  const subscription = query.subscribe(() => undefined);
  try {
    const page1 = await firstResult(query);
    expect(names(page1)).toEqual(['b1', 'b2']);
    expect(page1.projects.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });

    // A project that sorts before the cursor arrives between the pages.
    await t.create(owner, 'createProject', { name: 'a0', companyId });

    const more = await query.fetchMore({
      variables: { after: page1.projects.pageInfo.endCursor },
    });
    expect(names(more.data as Page)).toEqual(['b3', 'b4']);
    const merged = client.readQuery<Page>({ query: PROJECTS, variables: { first: 2 } })!;
    // Both pages in the cache, in order: nothing repeated (an offset would give b2 again), nothing
    // skipped.
    expect(names(merged)).toEqual(['b1', 'b2', 'b3', 'b4']);
    expect(merged.projects.pageInfo.hasNextPage).toBe(true);
    expect(merged.projects.totalCount).toBe(6);

    await query.fetchMore({ variables: { after: merged.projects.pageInfo.endCursor } });
    const all = client.readQuery<Page>({ query: PROJECTS, variables: { first: 2 } })!;
    expect(names(all)).toEqual(['b1', 'b2', 'b3', 'b4', 'b5']);
    expect(all.projects.pageInfo.hasNextPage).toBe(false);
  } finally {
    subscription.unsubscribe();
  }
});

test('last/before reads backwards and the cache prepends the earlier page', async () => {
  const client = apollo();
  const query = client.watchQuery({ query: PROJECTS, variables: { last: 2 } });
  const subscription = query.subscribe(() => undefined);
  try {
    const tail = await firstResult(query);
    expect(names(tail)).toEqual(['b4', 'b5']);
    expect(tail.projects.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    await query.fetchMore({ variables: { before: tail.projects.pageInfo.startCursor } });
    const merged = client.readQuery<Page>({ query: PROJECTS, variables: { last: 2 } })!;
    expect(names(merged)).toEqual(['b2', 'b3', 'b4', 'b5']);
    expect(merged.projects.pageInfo.hasPreviousPage).toBe(true);
  } finally {
    subscription.unsubscribe();
  }
});
