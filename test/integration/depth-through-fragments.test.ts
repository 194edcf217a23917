import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * GRAPHQL_MAX_DEPTH counts fields (issue 34 item 1): a fragment, spread or inline, adds no level,
 * so a query split into fragments as Relay splits it has the depth of its fields. The limit keeps
 * its protection: a query nested too deep through fragments is refused at the same field depth as
 * the same query written inline, and a cycle of fragments is refused without looping.
 */
let t: TestApp;
let owner: Credentials;
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
});
afterAll(() => t?.close());

/** projects → nodes → (company → projects → nodes)×k → id: field depth 3 + 3k, written inline. */
const inline = (k: number) =>
  `{ projects(first: 1) { nodes { ${'company { projects(first: 1) { nodes { '.repeat(k)}id${' } } }'.repeat(k)} } } }`;

/** The same fields, each level of the repetition a named fragment spread into the one above. */
function throughFragments(k: number): string {
  const fragments = Array.from({ length: k }, (_, i) => {
    const inner = i + 1 < k ? `...Level${i + 1}` : 'id';
    return `fragment Level${i} on Project { company { projects(first: 1) { nodes { ${inner} } } } }`;
  });
  return `{ projects(first: 1) { nodes { ${k > 0 ? '...Level0' : 'id'} } } } ${fragments.join(' ')}`;
}

/** The same fields again, with an inline fragment at every object. */
const inlineFragments = (k: number) =>
  `{ projects(first: 1) { nodes { ... on Project { ${'company { ... on Company { projects(first: 1) { nodes { ... on Project { '.repeat(k)}id${' } } } } }'.repeat(k)} } } } }`;

const depthOf = (message: string | undefined) => Number(/found (\d+)/.exec(message ?? '')?.[1]);

test('the deepest query that fits runs whether written inline or through fragments', async () => {
  const limit = t.config.graphql.maxDepth;
  const k = Math.floor((limit - 3) / 3);
  for (const query of [inline(k), throughFragments(k), inlineFragments(k)]) {
    const res = await t.gql(owner, query);
    expect({ status: res.status, errors: res.errors }).toEqual({ status: 200, errors: undefined });
  }
});

test('one level too deep is refused at the same field depth, inline or through fragments', async () => {
  const limit = t.config.graphql.maxDepth;
  const k = Math.ceil((limit - 2) / 3);
  const refusals = await Promise.all(
    [inline(k), throughFragments(k), inlineFragments(k)].map((query) => t.gql(owner, query)),
  );
  for (const res of refusals) {
    expect(res.status).toBe(400);
    expect(res.errors![0]!.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(res.errors![0]!.message).toMatch(new RegExp(`depth limit of ${limit} exceeded`));
    expect(res.data).toBeUndefined();
  }
  // Each counts 3 + 3k, the depth of the fields, whatever the fragments.
  expect(refusals.map((r) => depthOf(r.errors![0]!.message))).toEqual([
    3 + 3 * k,
    3 + 3 * k,
    3 + 3 * k,
  ]);
});

test('a fragment spread many times counts once per place, not once per spread', async () => {
  // Ten spreads of one fragment side by side are as deep as one.
  const res = await t.gql(
    owner,
    `{ projects(first: 1) { nodes { ${Array.from({ length: 10 }, () => '...P').join(' ')} } } }
     fragment P on Project { company { name } }`,
  );
  expect({ status: res.status, errors: res.errors }).toEqual({ status: 200, errors: undefined });
});

test('a cycle of fragments is refused, and refusing it terminates', async () => {
  const res = await t.gql(
    owner,
    `{ projects(first: 1) { nodes { ...A } } }
     fragment A on Project { company { ...B } }
     fragment B on Company { projects(first: 1) { nodes { ...A } } }`,
  );
  expect(res.status).toBe(400);
  expect(res.errors![0]!.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  expect(res.errors!.map((e) => e.message).join('\n')).toMatch(
    /Cannot spread fragment "A" within itself/,
  );
});
