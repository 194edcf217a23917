import { getOperationAST, parse } from 'graphql';
import { readRouteOf } from '../../src/graphql/replica-routing';
import { lagOf, parseLsn } from '../../src/db/read-replicas';

/** Where each kind of operation reads (docs/scaling.md, "Read replicas"). */
function routeOf(source: string, variables: Record<string, unknown> = {}) {
  const document = parse(source);
  return readRouteOf(getOperationAST(document)!, document, variables, {
    listRows: 500,
    defaultPageSize: 100,
  });
}

test.each([
  ['a report', '{ report(input: $input) { totalCount } }', 'replica'],
  ['a list of 500 rows', '{ shifts(first: 500) { nodes { id } } }', 'replica'],
  ['a list of 499 rows', '{ shifts(first: 499) { nodes { id } } }', 'primary'],
  ['a list of the default page', '{ projects { nodes { id } } }', 'primary'],
  ['the last 1,000 staff', '{ staff(last: 1000) { nodes { id } } }', 'replica'],
  ['one object', '{ project(id: "p") { id } }', 'primary'],
  [
    'a report beside the viewer',
    '{ viewer { login } report(input: $i) { totalCount } }',
    'replica',
  ],
  [
    'a report inside fragments',
    'query { ...Q } fragment Q on Query { ... on Query { report(input: $i) { totalCount } } }',
    'replica',
  ],
  [
    'a long list beside deletions',
    '{ shifts(first: 1000) { nodes { id } } deletions(since: "x") { nodes { id } } }',
    'primary',
  ],
  [
    'the sync watermark',
    '{ syncWatermark shifts(first: 1000) { nodes { id } } }',
    'records-position',
  ],
  ['a mutation', 'mutation { punchIn(input: {}) { project { id } } }', 'records-position'],
  ['a subscription', 'subscription { shiftEvents { kind } }', 'primary'],
])('%s reads on the %s', (_what, source, route) => {
  expect(routeOf(source)).toBe(route);
});

test('page sizes come from variables, or from their defaults', () => {
  const query = 'query($n: Int = 2000) { shifts(first: $n) { nodes { id } } }';
  expect(routeOf(query)).toBe('replica');
  expect(routeOf(query, { n: 10 })).toBe('primary');
  expect(routeOf('query($n: Int) { shifts(first: $n) { nodes { id } } }')).toBe('primary');
});

test('WAL positions compare as numbers across the 32-bit boundary', () => {
  expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
  expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
  expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
});

describe("a replica's lag, from the primary's sampled positions", () => {
  const samples = [
    { at: 1_000, lsn: 100n },
    { at: 1_250, lsn: 100n },
    { at: 1_500, lsn: 180n },
    { at: 1_750, lsn: 250n },
  ];
  test.each([
    ['has the newest position', 250n, 0],
    ['is past it', 300n, 0],
    ['has the one of 1,500 but not the newest', 200n, 500],
    ['has the idle primary of 1,250 (the newest sample at its position)', 150n, 750],
  ])('a replica that %s', (_what, replayed, lag) => {
    expect(lagOf(samples, replayed, 2_000)).toBe(lag);
  });

  test('a replica behind every sample kept: its age is not known', () => {
    expect(lagOf(samples, 99n, 2_000)).toBeUndefined();
    expect(lagOf([{ at: 1_000, lsn: 100n }], 50n, 2_000)).toBeUndefined();
  });

  test('no sample yet (the primary never answered): nothing to be behind', () => {
    expect(lagOf([], 0n, 2_000)).toBe(0);
  });
});
