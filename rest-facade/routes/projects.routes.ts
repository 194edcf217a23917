import { z } from 'zod';
import { tagList, text, textValue, uuid } from '../json/input-fields';
import type { JsonRoute } from '../json/json-format';
import {
  actionRoute,
  createRoute,
  deleteRoute,
  inCompany,
  inCompanyRef,
  listRoute,
  showRoute,
  updateRoute,
  type JsonResource,
} from '../json/json-routes';
import type { MappedInput } from '../operation-types';
import type { ProjectFieldsFragment, ProjectOrderField } from '../operations/generated';
import type { RouteInput } from '../route-table';
import { activityWire, renderActivity } from './activities.routes';
import { legacyFields, type WireOf } from './legacy-fields';
import { renderShift, shiftWire } from './shifts.routes';
import { memberUuids, uuidField, withOwner } from './wire-types';

/** A project as every project operation answers it (fragment ProjectFields). */
export type ProjectNode = ProjectFieldsFragment;

/** The project's fields as declared (`legacy` of the Project entity's fields). */
export const PROJECT = legacyFields('Project');

const projectWire = z
  .object({
    ...PROJECT.jsonShape,
    user_uuids: z.array(uuidField),
    activities: z.array(activityWire),
    grand_total: z
      .number()
      .int()
      .meta({ description: 'Seconds by all users, running shifts up to the request' }),
    running_total: z
      .number()
      .int()
      .meta({ description: "Seconds by the caller, the caller's running shift up to the request" }),
    running: z.boolean(),
    time_left: z.number().int().nullable(),
    overdue: z.boolean().nullable(),
    nearly_overdue: z.boolean().nullable(),
    started_at: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Unix seconds of the running shift start' }),
    // Only while the caller is punched in to the project:
    current_shift: shiftWire.optional(),
    shift_notes: z.string().nullable().optional(),
    shift_tag_list: z
      .string()
      .optional()
      .meta({ description: 'Comma-separated, unlike the array tag_list of shifts' }),
    shift_billable: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'Project' });

type ProjectWire = WireOf<typeof projectWire>;

/** The start of the caller's running shift in Unix seconds, as JSON and XML both carry it; null when not running. */
export const startedAtSeconds = (p: ProjectNode): number | null =>
  p.startedAt === null ? null : Math.floor(Date.parse(p.startedAt) / 1000);

function renderProject(p: ProjectNode): ProjectWire {
  const wire: ProjectWire = {
    ...PROJECT.json(p),
    user_uuids: withOwner(p.account.owner, p.users).map((user) => user.id),
    activities: p.activities.map(renderActivity),
    grand_total: p.grandTotal,
    running_total: p.runningTotal,
    running: p.running,
    time_left: p.timeLeft,
    overdue: p.overdue,
    nearly_overdue: p.nearlyOverdue,
    started_at: startedAtSeconds(p),
  };
  const shift = p.currentShift;
  if (!shift) return wire;
  return {
    ...wire,
    current_shift: renderShift(shift),
    shift_notes: shift.notes,
    shift_tag_list: shift.tagList.join(','),
    shift_billable: shift.billable,
  };
}

export const projectColumns = PROJECT.columns;

export const projectResource: JsonResource<ProjectNode, ProjectWire, ProjectOrderField, 'project'> =
  {
    key: 'project',
    named: (value) => ({ project: value }),
    entity: 'Project',
    legacyEntity: 'Project',
    wire: projectWire,
    render: renderProject,
    createFields: { ...PROJECT.createFields, ...memberUuids },
    updateFields: { ...PROJECT.updateFields, ...memberUuids },
    columns: PROJECT.columns,
  };

const punchInFields = {
  activity_uuid: { to: 'activityId', kind: uuid },
  notes: { to: 'notes', kind: text },
  tag_list: { to: 'tagList', kind: tagList },
} as const;

/** A punch names the project of the path, and its company on a company-nested route. */
const punched = (params: RouteInput['params']) => ({
  ...projectResource.named({ id: params.uuid }),
  ...(params.company_uuid === undefined ? {} : inCompanyRef(params)),
});
const punchIn = ({ params }: RouteInput, fields: MappedInput) => ({
  input: { ...fields, ...punched(params) },
});
const punchOut = ({ params }: RouteInput, fields: MappedInput) => ({
  input: { ...punched(params), notes: textValue(fields.notes) },
});

/** Flat and company-nested forms of the same acts. */
function projectRoutes(prefix: '' | '/companies/:company_uuid', where: string): JsonRoute[] {
  const scope = prefix ? inCompany : undefined;
  const parent = prefix ? inCompanyRef : undefined;
  return [
    listRoute(
      projectResource,
      `${prefix}/projects`,
      'ListProjects',
      `List the projects the caller can see${where}`,
      scope,
    ),
    createRoute(
      projectResource,
      `${prefix}/projects`,
      'CreateProject',
      `Create a project${where}`,
      scope,
    ),
    showRoute(
      projectResource,
      `${prefix}/projects/:uuid`,
      'ShowProject',
      `Show a project${where}`,
      scope,
    ),
    updateRoute(
      projectResource,
      `${prefix}/projects/:uuid`,
      'UpdateProject',
      `Update a project${where}; the answer carries its totals`,
      parent,
    ),
    deleteRoute(
      projectResource,
      `${prefix}/projects/:uuid`,
      'DeleteProject',
      `Delete a project${where} with its activities and shifts`,
      parent,
    ),
    actionRoute(
      projectResource,
      `${prefix}/projects/:uuid/punch_in`,
      'PunchIn',
      `Punch in to a project${where}, out of any other`,
      punchIn,
      punchInFields,
    ),
    actionRoute(
      projectResource,
      `${prefix}/projects/:uuid/punch_out`,
      'PunchOut',
      `Punch out of a project${where}; notes from the query or the body`,
      punchOut,
      { notes: punchInFields.notes },
    ),
  ];
}

export const projectJsonRoutes: JsonRoute[] = [
  ...projectRoutes('', ''),
  ...projectRoutes('/companies/:company_uuid', ' of a company'),
];
