import 'reflect-metadata';
import type { GraphQLEnumType, GraphQLInputObjectType, GraphQLObjectType } from 'graphql';
import { buildSchema, Resolver, Query, Arg } from 'type-graphql';
import {
  assertQueryReadable,
  declaredFilterPaths,
  declaredInputs,
  maskDeclaredFields,
} from '../../src/modules/common';
import { Project } from '../../src/modules/projects';
import { ProjectFilter, ProjectOrder } from '../../src/modules/projects/graphql/project.inputs';
import { Staff } from '../../src/modules/staff';
import { AppError } from '../../src/core/errors';
import { MANAGER, OWNER, STAFF, viewerOf } from '../support/policy-viewers';
import { StaffType } from '../../src/core/viewer';

/*
 * The field declarations (src/modules/common/field-declarations.ts) and what is derived from them,
 * without an app, a database or a server: the filter's property paths, the input limits, the
 * read rules of queries and of fields, and the GraphQL filter and order types.
 */

const MONEY_STAFF = viewerOf(StaffType.STAFF, 3, true);

test("a filter's fields are the declared ones, with their property paths", () => {
  expect(declaredFilterPaths(Project)).toMatchObject({
    id: 'uuid',
    legacyId: 'id',
    createdAt: 'createdAt',
    code: 'code',
    companyId: 'company.uuid',
    companyLegacyId: 'company.id',
    hourlyRateCents: 'hourlyRateCents',
  });
  expect(declaredFilterPaths(Project)).not.toHaveProperty('invoiceAmountCents');
  expect(declaredFilterPaths(Staff)).not.toHaveProperty('costRateCents');
});

test('a declared input validates to what is stored', () => {
  const code = declaredInputs(Project).code!;
  expect(code.parse('  ACME-01 ')).toBe('ACME-01');
  expect(code.parse('')).toBeNull();
  expect(code.parse(null)).toBeNull();
  expect(code.safeParse('A B').success).toBe(false);
  expect(code.safeParse('X'.repeat(33)).success).toBe(false);
});

describe('the money rule on queries, on every type that declares money', () => {
  const refusal = (run: () => void): string | undefined => {
    try {
      run();
      return undefined;
    } catch (error) {
      return error instanceof AppError ? error.code : String(error);
    }
  };
  test.each([
    ['a filter', { hourlyRateCents: { gt: 4999 } }, undefined],
    [
      'a filter within or/not',
      { or: [{ name: { eq: 'a' } }, { not: { hourlyRate: { eq: 'x' } } }] },
      undefined,
    ],
    ['an order', undefined, [{ field: 'hourlyRateCents' }]],
  ])(
    '%s on project money: READ_DENIED for a staff member, allowed where money is readable',
    (_, filter, order) => {
      expect(refusal(() => assertQueryReadable(STAFF, 'Project', Project, filter, order))).toBe(
        'READ_DENIED',
      );
      for (const viewer of [OWNER, MANAGER, MONEY_STAFF])
        expect(
          refusal(() => assertQueryReadable(viewer, 'Project', Project, filter, order)),
        ).toBeUndefined();
    },
  );

  test("a user's rate: the same rule on staff, which was not applied to a staff member's own list", () => {
    const filter = { hourlyRateCents: { gt: 4999 } };
    expect(refusal(() => assertQueryReadable(STAFF, 'Staff', Staff, filter, undefined))).toBe(
      'READ_DENIED',
    );
    expect(
      refusal(() => assertQueryReadable(OWNER, 'Staff', Staff, filter, undefined)),
    ).toBeUndefined();
  });

  test('fields without a rule are never refused', () => {
    expect(
      refusal(() =>
        assertQueryReadable(STAFF, 'Project', Project, { code: { eq: 'A' } }, [{ field: 'name' }]),
      ),
    ).toBeUndefined();
  });
});

test('the masks: a field under a read rule answers null to whom the rule refuses', async () => {
  @Resolver(() => Project)
  class OneProject {
    @Query(() => Project)
    project(@Arg('rate', () => String) rate: string): Project {
      return Object.assign(new Project(), { id: 1, hourlyRate: rate, name: 'P' });
    }
  }
  const schema = maskDeclaredFields(
    await buildSchema({ resolvers: [OneProject], validate: false }),
  );
  const field = (schema.getType('Project') as GraphQLObjectType).getFields().hourlyRate!;
  const row = Object.assign(new Project(), { hourlyRate: '$85' });
  const read = (viewer: typeof OWNER) => field.resolve!(row, {}, { viewer }, {} as never);
  expect(read(OWNER)).toBe('$85');
  expect(read(MONEY_STAFF)).toBe('$85');
  expect(read(STAFF)).toBeNull();
});

test('the filter and order types list exactly the declared fields', async () => {
  @Resolver()
  class Lists {
    @Query(() => String)
    projects(
      @Arg('filter', () => ProjectFilter, { nullable: true }) _filter: unknown,
      @Arg('order', () => [ProjectOrder], { nullable: true }) _order: unknown,
    ): string {
      return '';
    }
  }
  const schema = await buildSchema({ resolvers: [Lists], validate: false });
  const filter = schema.getType('ProjectFilter') as GraphQLInputObjectType;
  expect(Object.keys(filter.getFields()).sort()).toEqual(
    ['and', 'or', 'not', ...Object.keys(declaredFilterPaths(Project))].sort(),
  );
  const order = schema.getType('ProjectOrderField') as GraphQLEnumType;
  expect(order.getValues().map((v) => v.name)).toContain('CODE');
});
