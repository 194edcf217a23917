import { Client, fetchExchange, gql } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { relayPagination } from '@urql/exchange-graphcache/extras';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * urql with graphcache and `relayPagination()` over HTTP against the service: page 2, read with the
 * first page's `endCursor`, merges with page 1 in the cache, so the query with the first page's
 * variables answers both; a row added before the cursor between pages changes neither.
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
  query Projects($first: Int, $after: String) {
    projects(first: $first, after: $after, order: [{ field: NAME }]) {
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
    edges: { node: { name: string } }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

test('relayPagination merges the two pages of a connection read with first/after', async () => {
  const client = new Client({
    url: `${url}/graphql`,
    // POST with a JSON body: with Basic credentials, a GET that no browser vouches for could be
    // another site's page using the browser's remembered login, and is refused (docs/security.md).
    preferGetMethod: false,
    exchanges: [
      cacheExchange({ resolvers: { Query: { projects: relayPagination() } } }),
      fetchExchange,
    ],
    fetchOptions: {
      headers: {
        authorization: `Basic ${Buffer.from(`${owner.login}:${owner.password}`).toString('base64')}`,
      },
    },
  });
  const page1 = await client.query<Page>(PROJECTS, { first: 2 }).toPromise();
  expect(page1.error).toBeUndefined();
  expect(page1.data!.projects.edges.map((e) => e.node.name)).toEqual(['b1', 'b2']);

  await t.create(owner, 'createProject', { name: 'a0', companyId });

  const page2 = await client
    .query<Page>(PROJECTS, { first: 2, after: page1.data!.projects.pageInfo.endCursor })
    .toPromise();
  expect(page2.error).toBeUndefined();
  // relayPagination answers every page of the connection with the merged list.
  expect(page2.data!.projects.edges.map((e) => e.node.name)).toEqual(['b1', 'b2', 'b3', 'b4']);
  const again = await client
    .query<Page>(PROJECTS, { first: 2 }, { requestPolicy: 'cache-only' })
    .toPromise();
  expect(again.data!.projects.edges.map((e) => e.node.name)).toEqual(['b1', 'b2', 'b3', 'b4']);
  expect(again.data!.projects.pageInfo.hasNextPage).toBe(true);
});
