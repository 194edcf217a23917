import {
  FieldProblem,
  integer as integerField,
  integerList,
  text as textField,
  type FieldKind,
} from '../json/input-fields';
import { COMPANY_FIELDS, CONTACT_FIELDS, type CompanyNode } from './companies.routes';
import { PROJECT_FIELDS, startedAtSeconds, type ProjectNode } from './projects.routes';
import { SHIFT_FIELDS, type ShiftNode } from './shifts.routes';
import { readable, STAFF_FIELDS, type StaffNode } from './staff.routes';
import type { TimeZoneNode } from './time-zones.routes';
import { lower, withOwner, type Ref } from './wire-types';
import { formatLegacyTime, parseLegacyTime, type LegacyTime } from '../xml/legacy-dates';
import type { XmlRoute } from '../xml/xml-format';
import {
  legacyId,
  withPluralAliases,
  xmlAction,
  xmlCreate,
  xmlDelete,
  xmlList,
  xmlShow,
  xmlUpdate,
  type XmlResource,
} from '../xml/xml-route-builders';
import { array, boolean, element, float, integer, text, type XmlNode } from '../xml/xml-writer';

/** The legacy XML interface: root paths, integer ids, Rails-era element names. */

const userIds = (ids: readonly Ref[]): XmlNode =>
  array(
    'user_ids',
    ids.map((user) => integer('user_id', user.legacyId)),
  );

// The XML tables reuse the JSON rows of the fields the two interfaces share (same GraphQL field,
// same conversion), so a change of one cannot miss the other.
const userFields = {
  username: STAFF_FIELDS.login,
  password: STAFF_FIELDS.password,
  first_name: STAFF_FIELDS.first_name,
  last_name: STAFF_FIELDS.last_name,
  email_address: STAFF_FIELDS.email_address,
  active: STAFF_FIELDS.active,
  time_zone: STAFF_FIELDS.time_zone,
};

const userResource: XmlResource<StaffNode, 'staff'> = {
  key: 'staff',
  named: (value) => ({ staff: value }),
  element: 'user',
  collection: 'users',
  entity: 'Staff',
  legacyEntity: 'User',
  render: (s: StaffNode) => [
    integer('id', s.legacyId),
    text('username', readable(s.login, 'login')),
    text('first_name', s.firstName),
    text('last_name', s.lastName),
    text('email_address', readable(s.emailAddress, 'emailAddress')),
    // Old clients compare `active` with the string "true": no type attribute.
    text('active', String(s.active)),
    text('time_zone', s.timeZone),
  ],
  createFields: userFields,
  updateFields: userFields,
  location: (id) => `/staff/${id}.xml`,
};

/** The XML order of the company's text elements, which differs from the JSON one. */
const XML_ORDER = [
  'website',
  'main_phone',
  'fax_phone',
  'main_address',
  'main_city',
  'main_state',
  'main_postcode',
  'main_country',
  'contact_salutation',
  'contact_first_name',
  'contact_last_name',
  'contact_email_address',
  'contact_home_phone',
  'contact_mobile_phone',
  'notes',
] as const;
const graphqlNameOf = new Map<string, (typeof CONTACT_FIELDS)[number][1]>(CONTACT_FIELDS);
const COMPANY_TEXT = XML_ORDER.map((xml) => [xml, graphqlNameOf.get(xml)!] as const);

const companyFields = {
  name: COMPANY_FIELDS.name,
  visibility: COMPANY_FIELDS.visibility,
  user_ids: { to: 'userLegacyIds', kind: integerList },
  ...Object.fromEntries(
    COMPANY_TEXT.map(([xml, graphql]) => [xml, { to: graphql, kind: textField }]),
  ),
};

const companyResource: XmlResource<CompanyNode, 'company'> = {
  key: 'company',
  named: (value) => ({ company: value }),
  element: 'company',
  collection: 'companies',
  entity: 'Company',
  legacyEntity: 'Company',
  render: (c: CompanyNode) => [
    integer('id', c.legacyId),
    text('name', c.name),
    text('visibility', lower(c.visibility)),
    userIds(withOwner(c.account.owner, c.users)),
    ...COMPANY_TEXT.map(([xml, graphql]) => text(xml, c[graphql])),
    float('longitude', c.longitude),
    float('latitude', c.latitude),
  ],
  createFields: companyFields,
  updateFields: companyFields,
  location: (id) => `/company/${id}.xml`,
  legacyNames: { userIds: 'user_ids' },
};

const projectFields = {
  name: PROJECT_FIELDS.name,
  visibility: PROJECT_FIELDS.visibility,
  user_ids: { to: 'userLegacyIds', kind: integerList },
  active: PROJECT_FIELDS.active,
  time_limit_string: PROJECT_FIELDS.time_limit_string,
  default_tags: PROJECT_FIELDS.default_tags,
  notes: PROJECT_FIELDS.notes,
  company_id: { to: 'companyLegacyId', kind: integerField },
  taglist: PROJECT_FIELDS.tag_list,
  tag_list: PROJECT_FIELDS.tag_list,
  code: PROJECT_FIELDS.code,
};

const projectResource: XmlResource<ProjectNode, 'project'> = {
  key: 'project',
  named: (value) => ({ project: value }),
  element: 'project',
  collection: 'projects',
  entity: 'Project',
  legacyEntity: 'Project',
  render: (p: ProjectNode) => [
    integer('id', p.legacyId),
    text('name', p.name),
    text('visibility', lower(p.visibility)),
    userIds(withOwner(p.account.owner, p.users)),
    text('active', String(p.active)),
    text('time_limit_string', p.timeLimitString),
    text('default_tags', p.defaultTagsText ?? ''),
    text('notes', p.notes),
    integer('company_id', p.companyLegacyId),
    text('taglist', p.tagList.join(',')),
    // The running state the JSON project has (docs/xml-api.md, "<project>"), last so that
    // clients reading the older elements by position are undisturbed.
    boolean('running', p.running),
    integer('started_at', startedAtSeconds(p)),
    // Only when set, as in JSON: a client that never sets one reads the document it always did.
    ...(p.code === null ? [] : [text('code', p.code)]),
  ],
  createFields: projectFields,
  updateFields: projectFields,
  location: (id) => `/project/${id}.xml`,
  legacyNames: { userIds: 'user_ids', companyId: 'company_id' },
};

/** `Tue, 17 Mar 2009 10:00:00` with or without GMT; see legacy-dates.ts. */
const legacyTime: FieldKind = {
  schema: { type: ['string', 'null'] },
  convert(value) {
    if (value === null || value === '') return null;
    const parsed = typeof value === 'string' ? parseLegacyTime(value) : undefined;
    if (!parsed)
      throw new FieldProblem(
        'must be a time such as "Tue, 17 Mar 2009 10:00:00" (wall time) or "... GMT"',
      );
    return parsed;
  },
};

const shiftFields = {
  user_id: { to: 'userLegacyId', kind: integerField },
  start: { to: 'start', kind: legacyTime },
  stop: { to: 'stop', kind: legacyTime },
  time_zone: SHIFT_FIELDS.time_zone,
  notes: SHIFT_FIELDS.notes,
  project_id: { to: 'projectLegacyId', kind: integerField },
  taglist: SHIFT_FIELDS.tag_list,
  tag_list: SHIFT_FIELDS.tag_list,
};

/** A GMT time is an instant; a wall time goes to the service, which knows the shift's zone. */
function placeTimes(input: Record<string, unknown>): Record<string, unknown> {
  const placed = { ...input };
  for (const [field, local] of [
    ['start', 'localStartAsString'],
    ['stop', 'localStopAsString'],
  ] as const) {
    const time = placed[field] as LegacyTime | null | undefined;
    if (!time) continue;
    if (time.kind === 'instant') {
      placed[field] = time.iso;
    } else {
      delete placed[field];
      placed[local] = time.local;
    }
  }
  return placed;
}

const shiftResource: XmlResource<ShiftNode, 'shift'> = {
  key: 'shift',
  named: (value) => ({ shift: value }),
  element: 'shift',
  collection: 'shifts',
  entity: 'Shift',
  legacyEntity: 'Shift',
  render: (s: ShiftNode) => [
    integer('id', s.legacyId),
    integer('user_id', s.user.legacyId),
    text('staff_member', s.user.login),
    text('start', formatLegacyTime(s.start, s.timeZone)),
    text('stop', s.stop === null ? null : formatLegacyTime(s.stop, s.timeZone)),
    text('time_zone', s.timeZone),
    text('notes', s.notes),
    integer('project_id', s.projectLegacyId),
    text('taglist', s.tagList.join(',')),
  ],
  createFields: shiftFields,
  updateFields: shiftFields,
  location: (id) => `/shift/${id}.xml`,
  // Wall times reach the service as localStartAsString and come back named so in its errors.
  legacyNames: {
    localStartAsString: 'start',
    localStopAsString: 'stop',
    userId: 'user_id',
    projectId: 'project_id',
  },
  adjustInput: placeTimes,
};

const renderTimeZone = (zone: TimeZoneNode): XmlNode =>
  element('time_zone', [
    text('zone', zone.name),
    float('longitude', zone.longitude),
    float('latitude', zone.latitude),
    integer('offset', zone.offset),
    boolean('dst', zone.dst),
  ]);

const inCompany = (params: Readonly<Record<string, string>>) => ({
  companyLegacyId: legacyId(params.company_id, 'Company'),
});
const inProject = (params: Readonly<Record<string, string>>) => ({
  projectLegacyId: legacyId(params.project_id, 'Project'),
});

/** The routes as docs/xml-api.md lists them ("Routes"). */
const DOCUMENTED_ROUTES: readonly XmlRoute[] = [
  xmlList(userResource, '/staff', 'ListStaff', 'List the staff, the caller included'),
  xmlShow(userResource, '/staff/:id', 'ShowStaff', 'Show a staff member'),
  xmlCreate(userResource, '/staff', 'CreateStaff', 'Create a staff member'),
  xmlUpdate(userResource, '/staff/:id', 'UpdateStaff', 'Update a staff member'),
  xmlDelete(userResource, '/staff/:id', 'DeleteStaff', 'Delete a staff member'),

  xmlList(companyResource, '/companies', 'ListCompanies', 'List the companies'),
  xmlShow(companyResource, '/company/:id', 'ShowCompany', 'Show a company'),
  xmlCreate(companyResource, '/companies', 'CreateCompany', 'Create a company'),
  xmlUpdate(companyResource, '/company/:id', 'UpdateCompany', 'Update a company'),
  xmlDelete(companyResource, '/company/:id', 'DeleteCompany', 'Delete a company'),

  xmlList(projectResource, '/projects', 'ListProjects', 'List the projects'),
  xmlList(
    projectResource,
    '/company/:company_id/projects',
    'ListProjects',
    "List a company's projects",
    inCompany,
  ),
  xmlShow(projectResource, '/project/:id', 'ShowProject', 'Show a project'),
  xmlCreate(
    projectResource,
    '/company/:company_id/projects',
    'CreateProject',
    'Create a project of a company',
    inCompany,
  ),
  xmlUpdate(projectResource, '/project/:id', 'UpdateProject', 'Update a project'),
  xmlDelete(projectResource, '/project/:id', 'DeleteProject', 'Delete a project'),
  xmlAction(projectResource, '/project/:id/punch_in', 'PunchIn', 'Punch in to a project'),
  xmlAction(projectResource, '/project/:id/punch_out', 'PunchOut', 'Punch out of a project'),

  xmlList(shiftResource, '/shifts', 'ListShifts', 'List the shifts'),
  xmlList(
    shiftResource,
    '/project/:project_id/shifts',
    'ListShifts',
    "List a project's shifts",
    inProject,
  ),
  xmlShow(shiftResource, '/shift/:id', 'ShowShift', 'Show a shift'),
  xmlCreate(
    shiftResource,
    '/project/:project_id/shifts',
    'CreateShift',
    'Create a shift on a project',
    inProject,
  ),
  xmlUpdate(shiftResource, '/shift/:id', 'UpdateShift', 'Update a shift'),
  xmlDelete(shiftResource, '/shift/:id', 'DeleteShift', 'Delete a shift'),

  {
    method: 'GET',
    path: '/time_zones',
    operation: 'ListTimeZones',
    entity: 'User',
    docs: { summary: 'List every time zone' },
    variables: () => ({}),
    render: (zones: readonly TimeZoneNode[]) => ({
      node: array('time_zones', zones.map(renderTimeZone)),
    }),
  },
];

/** Every documented route, and each item route again under its plural path (`/projects/:id.xml`). */
export const XML_ROUTES: readonly XmlRoute[] = withPluralAliases(DOCUMENTED_ROUTES, [
  userResource,
  companyResource,
  projectResource,
  shiftResource,
]);
