import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  buildSchema,
  isEnumType,
  isInputObjectType,
  type GraphQLEnumType,
  type GraphQLInputObjectType,
} from 'graphql';
import ts from 'typescript';

/*
 * graphql-codegen over the committed schema, as an app sets it up: the `typescript`,
 * `typescript-operations` and `typed-document-node` plugins over a few operations of an app (a
 * query with variables, a list page, a mutation, a subscription). The generated module and a
 * small piece of app code using it are then compiled with the TypeScript compiler, and the
 * compiler's own view of the generated types is checked: every input object is an object type
 * with exactly its fields and every enum a union of its values, never `any` or `unknown` (which is
 * what codegen gave when introspection reported the inputs as scalars, issue 21 item 1).
 */

const ROOT = path.join(__dirname, '..', '..');
const COMMITTED_SCHEMA = fs.readFileSync(path.join(ROOT, 'schema', 'schema.graphql'), 'utf8');

/** What an app asks. */
const APP_OPERATIONS = [
  /* GraphQL */ `
    query ProjectDetails($id: ID!, $since: DateTimeISO!) {
      project(id: $id) {
        id
        name
        running
        grandTotal
        timeLeft
        company {
          id
          name
        }
        shifts(
          first: 10
          filter: { start: { gte: $since } }
          order: [{ field: START, direction: DESC }]
        ) {
          totalCount
          nodes {
            id
            start
            stop
            billable
          }
        }
      }
    }
  `,
  /* GraphQL */ `
    query ShiftsPage($first: Int, $after: String, $filter: ShiftFilter, $order: [ShiftOrder!]) {
      shifts(first: $first, after: $after, filter: $filter, order: $order) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          start
          stop
          project {
            id
            name
          }
          user {
            id
            firstName
          }
        }
      }
    }
  `,
  /* GraphQL */ `
    mutation PunchIn($input: PunchInInput!) {
      punchIn(input: $input) {
        project {
          id
          running
        }
        shift {
          id
          start
          tagList
        }
        stoppedShifts {
          id
          stop
        }
      }
    }
  `,
  /* GraphQL */ `
    subscription ShiftEvents($kinds: [ShiftEventKind!], $projectId: ID) {
      shiftEvents(kinds: $kinds, projectId: $projectId) {
        kind
        occurredAt
        shift {
          id
          start
          stop
        }
      }
    }
  `,
];

/** App code using the generated types: what must compile, and what must not. */
const APP_CODE = `
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  ShiftsPageDocument,
  type ProjectDetailsQueryVariables,
  type PunchInMutation,
  type PunchInMutationVariables,
  type ShiftEventsSubscription,
  type ShiftFilter,
  type ShiftOrder,
  type ShiftsPageQuery,
  type ShiftsPageQueryVariables,
} from './app-types';
import type { ReportInput } from './schema-types';

export const filter: ShiftFilter = {
  start: { gte: '2026-11-01T00:00:00Z' },
  or: [{ billable: { eq: false } }, { notes: { like: '%review%' } }],
  not: { stop: { isNull: true } },
};
export const order: ShiftOrder[] = [{ field: 'START', direction: 'DESC' }, { field: 'LEGACY_ID' }];
export const page: ShiftsPageQueryVariables = { first: 50, after: null, filter, order };
export const details: ProjectDetailsQueryVariables = { id: 'p', since: '2026-11-01T00:00:00Z' };
export const punch: PunchInMutationVariables = { input: { project: { id: 'p' }, notes: 'Starting', tagList: ['onsite'] } };
export const report: ReportInput = {
  from: '2026-01-01T00:00:00+01:00',
  to: '2027-01-01T00:00:00+01:00',
  groupBy: ['PROJECT', 'USER'],
  bucket: 'MONTH',
  filter: { billable: true },
};
export const document: TypedDocumentNode<ShiftsPageQuery, ShiftsPageQueryVariables> = ShiftsPageDocument;

export function firstStart(data: ShiftsPageQuery): string | undefined {
  return data.shifts.nodes[0]?.start;
}
export function projectName(data: ShiftsPageQuery): string | undefined {
  return data.shifts.nodes[0]?.project?.name;
}
export function isRunning(data: PunchInMutation): boolean {
  return data.punchIn.project.running;
}
export function stoppedIds(data: PunchInMutation): string[] {
  return data.punchIn.stoppedShifts.map((shift) => shift.id);
}
export function eventKind(data: ShiftEventsSubscription): 'PUNCHED_IN' | 'PUNCHED_OUT' | 'SHIFT_CREATED' | 'SHIFT_UPDATED' | 'SHIFT_DELETED' {
  return data.shiftEvents.kind;
}

// Each of these must be an error; with a type that is \`any\` or \`unknown\` it is not, and the
// directive itself becomes the error.
// @ts-expect-error: no such filter field
export const unknownField: ShiftFilter = { startedAt: { gte: '2026-11-01T00:00:00Z' } };
// @ts-expect-error: an operand of the wrong type
export const wrongOperand: ShiftFilter = { billable: { eq: 'yes' } };
// @ts-expect-error: no such enum value
export const wrongEnum: ShiftOrder = { field: 'DURATION' };
// @ts-expect-error: a required variable left out
export const missingVariable: ProjectDetailsQueryVariables = { since: '2026-11-01T00:00:00Z' };
// @ts-expect-error: no such report dimension
export const wrongDimension: ReportInput = { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z', groupBy: ['DURATION'] };
// @ts-expect-error: a field the operation did not select
export const unselected = (data: ShiftsPageQuery) => data.shifts.nodes[0]?.notes;
`;

const CODEGEN = path.join(ROOT, 'node_modules', '.bin', 'graphql-codegen');

/**
 * Runs graphql-codegen's command line, as an app's build does, over `schema` (SDL) and
 * `documents`, with the app's configuration: scalars mapped, the rest as the plugins' defaults.
 * A child process: the CLI and its plugins load ECMAScript-only packages (yargs 18, auto-bind),
 * which Jest's module VM cannot. Resolves to the generated module; rejects with codegen's report.
 */
async function generateAppTypes(schema: string, documents: string[] = APP_OPERATIONS) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'app-codegen-'));
  const shared = {
    scalars: { DateTimeISO: 'string', SafeInt: 'number' },
    // A scalar codegen does not know becomes `unknown`, so a wrong type shows here.
    defaultScalarType: 'unknown',
    // Type names as the schema spells them (IDFilter, not IdFilter).
    namingConvention: 'keep',
  };
  try {
    fs.writeFileSync(path.join(dir, 'schema.graphql'), schema);
    documents.forEach((text, i) =>
      fs.writeFileSync(path.join(dir, `operation-${i + 1}.graphql`), text),
    );
    const config = {
      schema: path.join(dir, 'schema.graphql'),
      // The operations only, not the schema file beside them.
      documents: path.join(dir, 'operation-*.graphql'),
      generates: {
        // Every type of the schema, as the `typescript` plugin writes them (a cache's type
        // policies, forms that build inputs).
        [path.join(dir, 'schema-types.ts')]: {
          plugins: ['typescript'],
          config: { ...shared, enumsAsTypes: true },
        },
        // The operations' results and variables, with the inputs and enums they use
        // (typescript-operations 6 writes those itself), and typed documents for the clients.
        [path.join(dir, 'app-types.ts')]: {
          plugins: ['typescript-operations', 'typed-document-node'],
          config: { ...shared, useTypeImports: true },
        },
      },
    };
    fs.writeFileSync(path.join(dir, 'codegen.json'), JSON.stringify(config));
    const run = spawnSync(CODEGEN, ['--config', path.join(dir, 'codegen.json')], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      // Under NODE_ENV=test (Jest sets it) the CLI prints nothing, errors included.
      env: { ...process.env, NODE_ENV: 'development' },
    });
    if (run.status !== 0)
      throw new Error(
        `graphql-codegen failed (${run.status ?? run.error?.message}):\n${run.stdout}\n${run.stderr}`,
      );
    return {
      schemaTypes: fs.readFileSync(path.join(dir, 'schema-types.ts'), 'utf8'),
      appTypes: fs.readFileSync(path.join(dir, 'app-types.ts'), 'utf8'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

interface Compiled {
  /** The compiler's errors, one line each. */
  errors: string[];
  /** What is wrong with the TypeScript type of each input object and enum of the schema. */
  typeProblems: string[];
}

/**
 * Compiles the generated module with the app code (in memory, resolved from the repository so
 * that @graphql-typed-document-node/core is found), and checks the generated type of every input
 * object and enum of `schemaText` against the schema.
 */
function compileApp(
  generated: { schemaTypes: string; appTypes: string },
  schemaText: string,
): Compiled {
  const dir = path.join(ROOT, 'test', 'clients', '__generated__');
  const files = new Map([
    [path.join(dir, 'schema-types.ts'), generated.schemaTypes],
    [path.join(dir, 'app-types.ts'), generated.appTypes],
    [path.join(dir, 'app.ts'), APP_CODE],
  ]);
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    lib: ['lib.es2022.d.ts'],
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile, directoryExists } = host;
  host.fileExists = (name) => files.has(name) || fileExists(name);
  host.directoryExists = (name) => name === dir || (directoryExists?.(name) ?? false);
  host.readFile = (name) => files.get(name) ?? readFile(name);
  host.getSourceFile = (name, language, ...rest) => {
    const text = files.get(name);
    return text === undefined
      ? getSourceFile(name, language, ...rest)
      : ts.createSourceFile(name, text, language);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  const errors = ts.getPreEmitDiagnostics(program).map((d) => {
    const where =
      d.file && d.start !== undefined
        ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: `
        : '';
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });

  const checker = program.getTypeChecker();
  const exportsOf = (file: string) => {
    const source = program.getSourceFile(path.join(dir, file))!;
    return checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).map((symbol) => ({
      symbol,
      source,
      type: checker.getDeclaredTypeOfSymbol(symbol),
    }));
  };
  const exported = new Map(exportsOf('schema-types.ts').map((e) => [e.symbol.name, e.type]));
  const typeProblems: string[] = [];
  // Every variable of every operation has a type that says something.
  for (const { symbol, source, type } of exportsOf('app-types.ts')) {
    if (!symbol.name.endsWith('Variables')) continue;
    for (const variable of type.getProperties()) {
      const text = checker.typeToString(checker.getTypeOfSymbolAtLocation(variable, source));
      if (/\b(any|unknown)\b/.test(text))
        typeProblems.push(`${symbol.name}.${variable.name}: ${text}`);
    }
  }
  for (const type of Object.values(buildSchema(schemaText).getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isInputObjectType(type)) typeProblems.push(...inputProblems(type, exported.get(type.name)));
    if (isEnumType(type)) typeProblems.push(...enumProblems(type, exported.get(type.name)));
  }
  return { errors, typeProblems };

  function inputProblems(input: GraphQLInputObjectType, tsType: ts.Type | undefined): string[] {
    if (!tsType) return [`${input.name}: not generated`];
    if (input.isOneOf) return oneOfProblems(input, tsType);
    if (
      tsType.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown) ||
      !(tsType.flags & ts.TypeFlags.Object)
    )
      return [`${input.name}: ${checker.typeToString(tsType)}, not an object type`];
    const properties = tsType
      .getProperties()
      .map((p) => p.name)
      .sort();
    const fields = Object.keys(input.getFields()).sort();
    return properties.join() === fields.join()
      ? []
      : [`${input.name}: properties ${properties.join(', ')}; fields ${fields.join(', ')}`];
  }

  /** A `@oneOf` input: a union with one member per field, each requiring exactly that field. */
  function oneOfProblems(input: GraphQLInputObjectType, tsType: ts.Type): string[] {
    const members = tsType.isUnion() ? tsType.types : [tsType];
    const required = members.map((member) =>
      member
        .getProperties()
        .filter((p) => !(p.flags & ts.SymbolFlags.Optional))
        .map((p) => p.name)
        .join(),
    );
    const fields = Object.keys(input.getFields()).sort();
    return required.sort().join('|') === fields.join('|')
      ? []
      : [`${input.name}: one of ${required.join(' | ')}; fields ${fields.join(', ')}`];
  }

  function enumProblems(graphqlEnum: GraphQLEnumType, tsType: ts.Type | undefined): string[] {
    if (!tsType) return [`${graphqlEnum.name}: not generated`];
    const members = tsType.isUnion() ? tsType.types : [tsType];
    const literals = members.map((m) => (m.isStringLiteral() ? m.value : undefined));
    const values = graphqlEnum.getValues().map((v) => v.name);
    return literals.includes(undefined) || literals.sort().join() !== values.sort().join()
      ? [
          `${graphqlEnum.name}: ${checker.typeToString(tsType)}, not the union of ${values.join(' | ')}`,
        ]
      : [];
  }
}

test('codegen types the app operations from the committed schema, and the result compiles', async () => {
  const compiled = compileApp(await generateAppTypes(COMMITTED_SCHEMA), COMMITTED_SCHEMA);
  expect(compiled).toEqual({ errors: [], typeProblems: [] });
});

test('the check fails where input objects come out untyped (a schema that reports them as scalars)', async () => {
  // What introspection answered before issue 21 item 1: every input object a custom scalar.
  const lying = COMMITTED_SCHEMA.replace(/^input (\w+)[^{\n]*\{[\s\S]*?\n\}/gm, 'scalar $1');
  expect(lying).not.toMatch(/^input /m);
  const compiled = compileApp(await generateAppTypes(lying), COMMITTED_SCHEMA);
  expect(compiled.typeProblems).toEqual(
    expect.arrayContaining([
      'ShiftsPageQueryVariables.filter: unknown',
      'ShiftsPageQueryVariables.order: unknown',
      'PunchInMutationVariables.input: unknown',
      'ShiftFilter: not generated',
    ]),
  );
  expect(compiled.errors).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^app\.ts:\d+: Unused '@ts-expect-error' directive/),
    ]),
  );
});

test('codegen refuses an operation the schema does not allow', async () => {
  await expect(
    generateAppTypes(COMMITTED_SCHEMA, ['query Broken { shifts { nodes { id duration } } }']),
  ).rejects.toThrow(/Cannot query field "duration" on type "Shift"/);
  await expect(
    generateAppTypes(COMMITTED_SCHEMA, [
      'query WrongFilter($filter: ProjectFilter) { shifts(filter: $filter) { totalCount } }',
    ]),
  ).rejects.toThrow(
    /Variable "\$filter" of type "ProjectFilter" used in position expecting type "ShiftFilter"/,
  );
});
