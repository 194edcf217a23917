import { integerList } from '../json/input-fields';
import { COMPANY, type CompanyNode } from './companies.routes';
import { PROJECT, startedAtSeconds, type ProjectNode } from './projects.routes';
import { SHIFT, type ShiftNode } from './shifts.routes';
import { passwordField, STAFF, type StaffNode } from './staff.routes';
import type { TimeZoneNode } from './time-zones.routes';
import { withOwner, type Ref } from './wire-types';
import type { XmlInserts } from './legacy-fields';
import type { LegacyTime } from '../xml/legacy-dates';
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

/** Members are written by integer id; the owner, always one, need not be named. */
const memberIds = { user_ids: { to: 'userLegacyIds', kind: integerList } };

// Every resource's fields are its declared XML fields (legacy-fields.ts), and what no single field
// declares: members, a project's running state, a shift's user.
const userFields = { ...STAFF.xmlFields, ...passwordField };

const userResource: XmlResource<StaffNode, 'staff'> = {
  key: 'staff',
  named: (value) => ({ staff: value }),
  element: 'user',
  collection: 'users',
  entity: 'Staff',
  legacyEntity: 'User',
  render: (s: StaffNode) => STAFF.xml(s),
  createFields: userFields,
  updateFields: userFields,
  location: (id) => `/staff/${id}.xml`,
};

const companyFields = { ...COMPANY.xmlFields, ...memberIds };

const companyResource: XmlResource<CompanyNode, 'company'> = {
  key: 'company',
  named: (value) => ({ company: value }),
  element: 'company',
  collection: 'companies',
  entity: 'Company',
  legacyEntity: 'Company',
  render: (c: CompanyNode) =>
    COMPANY.xml(c, { visibility: () => [userIds(withOwner(c.account.owner, c.users))] }),
  createFields: companyFields,
  updateFields: companyFields,
  location: (id) => `/company/${id}.xml`,
  legacyNames: { userIds: 'user_ids' },
};

// `tag_list` is read too: clients wrote either.
const projectFields = { ...PROJECT.xmlFields, ...memberIds, tag_list: PROJECT.xmlFields.taglist! };

const projectResource: XmlResource<ProjectNode, 'project'> = {
  key: 'project',
  named: (value) => ({ project: value }),
  element: 'project',
  collection: 'projects',
  entity: 'Project',
  legacyEntity: 'Project',
  render: (p: ProjectNode) =>
    PROJECT.xml(p, {
      visibility: () => [userIds(withOwner(p.account.owner, p.users))],
      // The running state the JSON project has (docs/xml-api.md, "<project>"), after the older
      // elements so that clients reading those by position are undisturbed.
      taglist: () => [boolean('running', p.running), integer('started_at', startedAtSeconds(p))],
    }),
  createFields: projectFields,
  updateFields: projectFields,
  location: (id) => `/project/${id}.xml`,
  legacyNames: { userIds: 'user_ids', companyId: 'company_id' },
};

const shiftFields = { ...SHIFT.xmlFields, tag_list: SHIFT.xmlFields.taglist! };

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

/** After a shift's id: its user's, and the user's login. */
const shiftInserts: XmlInserts<Pick<ShiftNode, 'user'>> = {
  id: (s) => [integer('user_id', s.user.legacyId), text('staff_member', s.user.login)],
};

const shiftResource: XmlResource<ShiftNode, 'shift'> = {
  key: 'shift',
  named: (value) => ({ shift: value }),
  element: 'shift',
  collection: 'shifts',
  entity: 'Shift',
  legacyEntity: 'Shift',
  render: (s: ShiftNode) => SHIFT.xml(s, shiftInserts),
  writer: SHIFT.xmlWriter('shift', shiftInserts, ['user']),
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
