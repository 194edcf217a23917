import { compileRelay as compile } from '../support/relay';

/**
 * relay-compiler (v21) over the committed schema: operations using `@connection` on the lists and
 * `@refetchable` on fragments of Project and Shift compile, which needs `Node`, `node(id:)` and
 * Relay connections. A deliberately broken operation fails, so this test can fail.
 */
const OPERATIONS: Record<string, string> = {
  'ProjectList.js': `
graphql\`
  query ProjectListQuery {
    ...ProjectList_query
  }
\`;
graphql\`
  fragment ProjectList_query on Query
  @refetchable(queryName: "ProjectListPaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 20 }, after: { type: "String" }) {
    projects(first: $first, after: $after, order: [{ field: NAME }])
    @connection(key: "ProjectList_projects") {
      totalCount
      edges {
        node {
          id
          ...ProjectItem_project
        }
      }
    }
  }
\`;
`,
  'ProjectItem.js': `
graphql\`
  fragment ProjectItem_project on Project
  @refetchable(queryName: "ProjectItemRefetchQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 10 }, cursor: { type: "String" }) {
    id
    name
    active
    shifts(first: $count, after: $cursor) @connection(key: "ProjectItem_shifts") {
      edges {
        node {
          ...ShiftItem_shift
        }
      }
    }
  }
\`;
`,
  'ShiftItem.js': `
graphql\`
  fragment ShiftItem_shift on Shift @refetchable(queryName: "ShiftItemRefetchQuery") {
    id
    start
    stop
    notes
  }
\`;
`,
  'RecentShifts.js': `
graphql\`
  query RecentShiftsQuery($last: Int, $before: String) {
    shifts(last: $last, before: $before) @connection(key: "RecentShifts_shifts") {
      edges {
        node {
          ...ShiftItem_shift
        }
      }
    }
  }
\`;
`,
};

test('the operations compile: @connection on lists, @refetchable on Project and Shift', () => {
  const result = compile(OPERATIONS);
  expect({ status: result.status, output: result.status === 0 ? '' : result.output }).toEqual({
    status: 0,
    output: '',
  });
  expect(result.generated).toEqual(
    expect.arrayContaining([
      'ProjectListQuery.graphql.js',
      'ProjectListPaginationQuery.graphql.js',
      'ProjectList_query.graphql.js',
      'ProjectItemRefetchQuery.graphql.js',
      'ProjectItem_project.graphql.js',
      'ShiftItemRefetchQuery.graphql.js',
      'ShiftItem_shift.graphql.js',
      'RecentShiftsQuery.graphql.js',
    ]),
  );
});

test('a broken operation fails to compile', () => {
  const result = compile({
    ...OPERATIONS,
    // A report is no Node: Relay cannot refetch it by id.
    'Broken.js': `
graphql\`
  fragment Broken_report on Report @refetchable(queryName: "BrokenRefetchQuery") {
    bucket
  }
\`;
`,
  });
  expect(result.status).not.toBe(0);
  expect(result.output).toMatch(/Broken_report|BrokenRefetchQuery|@refetchable/);
});
