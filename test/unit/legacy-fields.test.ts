import { legacyFields } from '../../rest-facade/routes/legacy-fields';
import { renderXml, text } from '../../rest-facade/xml/xml-writer';

/**
 * The legacy wires as the field declarations give them (rest-facade/routes/legacy-fields.ts over
 * the table `npm run schema:emit` writes), without the app: a project's answer as GraphQL gives it
 * (fragment ProjectLegacy), rendered and read back on both wires.
 */
const PROJECT = legacyFields('Project');

const answer = {
  legacyId: 7,
  id: '0b7e8a56-54a4-4c4f-9d0e-1a1f3c5d7e90',
  name: 'Website',
  visibility: 'CUSTOM',
  active: true,
  timeLimit: 36_000,
  timeLimitString: '10h',
  defaultTagsText: null,
  notes: null,
  companyId: '5d1b1d62-3c43-4a32-9d77-7b6f3e8c2a10',
  companyLegacyId: 3,
  tagList: ['web', 'design'],
  hourlyRate: '$95.00',
  hourlyRateCents: 9_500,
  invoiceAmountCents: 125_050,
  billableByDefault: false,
  code: null,
};

test('JSON: names and forms as declared; a whenSet field only when set', () => {
  expect(PROJECT.json(answer)).toEqual({
    uuid: answer.id,
    name: 'Website',
    visibility: 'custom',
    active: 'true',
    time_limit: 36_000,
    time_limit_string: '10h',
    default_tags: null,
    notes: null,
    company_uuid: answer.companyId,
    tag_list: 'web,design',
    hourly_rate: '$95.00',
    hourly_rate_cents: 9_500,
    invoice_amount: 1_250.5,
    billable_by_default: false,
  });
  expect(PROJECT.json({ ...answer, code: 'WEB-1' })).toMatchObject({ code: 'WEB-1' });
  expect(PROJECT.jsonShape.code!.safeParse(undefined).success).toBe(true);
});

test("XML: elements in the declarations' order, a resource's own after the element it names", () => {
  const elements = PROJECT.xml(answer, { visibility: () => [text('members', 'owner')] });
  expect(elements.map((e) => e.name)).toEqual([
    'id',
    'name',
    'visibility',
    'members',
    'active',
    'time_limit_string',
    'default_tags',
    'notes',
    'company_id',
    'taglist',
  ]);
  const xml = renderXml({ name: 'project', kind: 'element', children: elements });
  // Typed as Rails wrote them; `active` plain text; no default tags an empty element, not nil.
  expect(xml).toContain('<id type="integer">7</id>');
  expect(xml).toContain('<active>true</active>');
  expect(xml).toContain('<default_tags/>');
  expect(xml).toContain('<notes nil="true"/>');
  expect(xml).toContain('<taglist>web,design</taglist>');
  expect(PROJECT.xml({ ...answer, code: 'WEB-1' }).at(-1)).toEqual(text('code', 'WEB-1'));
});

test('writes: each wire reads its own names into the GraphQL input fields', () => {
  expect(PROJECT.createFields.uuid?.to).toBe('id');
  expect(PROJECT.updateFields.uuid).toBeUndefined();
  expect(PROJECT.createFields.invoice_amount!.kind.convert('1250.50')).toBe(125_050);
  expect(PROJECT.createFields.visibility!.kind.convert('Private')).toBe('PRIVATE');
  expect(PROJECT.xmlFields.company_id?.to).toBe('companyLegacyId');
  expect(PROJECT.xmlFields.taglist!.kind.convert('a, b')).toEqual(['a', 'b']);
  // Not writable: no input of either wire reads it.
  expect(Object.keys(PROJECT.createFields)).not.toContain('legacy_id');
});

test('columns: what `where` and `order` may name, typed as the filter reads them', () => {
  expect(PROJECT.columns.active).toEqual({
    filter: 'active',
    type: 'string-boolean',
    order: 'ACTIVE',
  });
  expect(PROJECT.columns.visibility?.type).toEqual({
    enum: { public: 'PUBLIC', private: 'PRIVATE', custom: 'CUSTOM' },
  });
  // Declared on the wire but not filterable: no column.
  expect(PROJECT.columns.tag_list).toBeUndefined();
});

test('a field the legacy wire always has is never rendered as null', () => {
  const staff = legacyFields('Staff');
  expect(() =>
    staff.json({
      legacyId: 1,
      id: 'a',
      login: null,
      firstName: '',
      lastName: '',
      emailAddress: null,
      active: true,
      timeZone: 'UTC',
      type: 'STAFF',
      hourlyRateCents: null,
    }),
  ).toThrow('login was withheld');
});

test('a download cell: the JSON value, lists and booleans as text', () => {
  const shift = legacyFields('Shift');
  const row = {
    legacyId: 1,
    id: 'b',
    start: '2026-03-02T08:00:00.000Z',
    stop: null,
    timeZone: 'UTC',
    notes: null,
    projectId: 'p',
    projectLegacyId: 2,
    billable: true,
    tagList: ['x', 'y'],
    activityId: null,
    externalHref: null,
  };
  expect(shift.cell('start', row)).toBe('2026-03-02T08:00:00Z');
  expect(shift.cell('billable', row)).toBe('true');
  expect(shift.cell('tag_list', row)).toBe('x,y');
  expect(shift.cell('stop', row)).toBeNull();
});

test("a company's coordinates are written through JSON, never through XML (docs/xml-api.md)", () => {
  const company = legacyFields('Company');
  expect(company.createFields.latitude?.to).toBe('latitude');
  expect(company.xmlFields.latitude).toBeUndefined();
  expect(company.xmlFields.longitude).toBeUndefined();
  expect(company.xmlFields.main_city?.to).toBe('mainCity');
});
