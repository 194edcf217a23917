import { z } from 'zod';
import {
  boolean,
  centsFromAmount,
  integer,
  tagList,
  tagText,
  text,
  uuid,
  uuidList,
} from '../json/input-fields';
import type { JsonRoute } from '../json/json-format';
import {
  actionRoute,
  createRoute,
  deleteRoute,
  inCompany,
  listRoute,
  showRoute,
  updateRoute,
  type JsonResource,
} from '../json/json-routes';
import type { ColumnTable } from '../query/columns';
import type { RouteInput } from '../route-table';
import { activityWire, renderActivity, type ActivityNode } from './activities.routes';
import { VISIBILITY, VISIBILITY_COLUMN, type Visibility } from './companies.routes';
import { renderShift, shiftWire, type ShiftNode } from './shifts.routes';
import {
  asStringBoolean,
  lower,
  stringBoolean,
  uuidField,
  withOwner,
  type Ref,
} from './wire-types';

export interface ProjectNode {
  id: string;
  legacyId: number;
  name: string;
  active: boolean;
  companyId: string;
  companyLegacyId: number;
  visibility: Visibility;
  account: { owner: Ref };
  users: Ref[];
  timeLimit: number | null;
  timeLimitString: string | null;
  defaultTagsText: string | null;
  tagList: string[];
  notes: string | null;
  hourlyRate: string | null;
  hourlyRateCents: number | null;
  invoiceAmountCents: number | null;
  billableByDefault: boolean;
  activities: ActivityNode[];
  grandTotal: number;
  runningTotal: number;
  running: boolean;
  timeLeft: number | null;
  overdue: boolean | null;
  nearlyOverdue: boolean | null;
  startedAt: string | null;
  currentShift: ShiftNode | null;
}

const projectWire = z
  .object({
    uuid: uuidField,
    name: z.string(),
    active: stringBoolean,
    company_uuid: uuidField,
    visibility: z.enum(['public', 'private', 'custom']),
    user_uuids: z.array(uuidField),
    time_limit: z.number().int().nullable().meta({ description: 'Seconds' }),
    time_limit_string: z.string().nullable(),
    default_tags: z
      .string()
      .nullable()
      .meta({ description: 'Comma-separated, exactly as written' }),
    tag_list: z.string().meta({ description: 'Comma-separated' }),
    notes: z.string().nullable(),
    hourly_rate: z.string().nullable(),
    hourly_rate_cents: z.number().int().nullable(),
    invoice_amount: z.number().nullable().meta({ description: 'Currency units, two decimals' }),
    billable_by_default: z.boolean(),
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

type ProjectWire = z.infer<typeof projectWire>;

/** The start of the caller's running shift in Unix seconds, as JSON and XML both carry it; null when not running. */
export const startedAtSeconds = (p: ProjectNode): number | null =>
  p.startedAt === null ? null : Math.floor(Date.parse(p.startedAt) / 1000);

function renderProject(p: ProjectNode): ProjectWire {
  const wire: ProjectWire = {
    uuid: p.id,
    name: p.name,
    active: asStringBoolean(p.active),
    company_uuid: p.companyId,
    visibility: lower(p.visibility),
    user_uuids: withOwner(p.account.owner, p.users).map((user) => user.id),
    time_limit: p.timeLimit,
    time_limit_string: p.timeLimitString,
    default_tags: p.defaultTagsText,
    tag_list: p.tagList.join(','),
    notes: p.notes,
    hourly_rate: p.hourlyRate,
    hourly_rate_cents: p.hourlyRateCents,
    invoice_amount: p.invoiceAmountCents === null ? null : p.invoiceAmountCents / 100,
    billable_by_default: p.billableByDefault,
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

const updateFields = {
  name: { to: 'name', kind: text },
  active: { to: 'active', kind: boolean },
  company_uuid: { to: 'companyId', kind: uuid },
  visibility: { to: 'visibility', kind: VISIBILITY },
  user_uuids: { to: 'userIds', kind: uuidList },
  time_limit: { to: 'timeLimit', kind: integer },
  time_limit_string: { to: 'timeLimitString', kind: text },
  default_tags: { to: 'defaultTagsText', kind: tagText },
  tag_list: { to: 'tagList', kind: tagList },
  notes: { to: 'notes', kind: text },
  hourly_rate: { to: 'hourlyRate', kind: text },
  hourly_rate_cents: { to: 'hourlyRateCents', kind: integer },
  invoice_amount: { to: 'invoiceAmountCents', kind: centsFromAmount },
  billable_by_default: { to: 'billableByDefault', kind: boolean },
} as const;

export const projectColumns: ColumnTable = {
  uuid: { filter: 'id', type: 'uuid', order: 'ID' },
  name: { filter: 'name', type: 'string', order: 'NAME' },
  active: { filter: 'active', type: 'string-boolean', order: 'ACTIVE' },
  company_uuid: { filter: 'companyId', type: 'uuid', order: 'COMPANY_ID' },
  visibility: { filter: 'visibility', type: VISIBILITY_COLUMN, order: 'VISIBILITY' },
  time_limit: { filter: 'timeLimit', type: 'integer', order: 'TIME_LIMIT' },
  time_limit_string: { filter: 'timeLimitString', type: 'string', order: 'TIME_LIMIT_STRING' },
  notes: { filter: 'notes', type: 'string', order: 'NOTES' },
  hourly_rate: { filter: 'hourlyRate', type: 'string', order: 'HOURLY_RATE' },
  hourly_rate_cents: { filter: 'hourlyRateCents', type: 'integer', order: 'HOURLY_RATE_CENTS' },
  billable_by_default: {
    filter: 'billableByDefault',
    type: 'boolean',
    order: 'BILLABLE_BY_DEFAULT',
  },
};

export const projectResource: JsonResource<ProjectWire> = {
  key: 'project',
  entity: 'Project',
  legacyEntity: 'Project',
  wire: projectWire,
  render: renderProject,
  createFields: { uuid: { to: 'id', kind: uuid }, ...updateFields },
  updateFields,
  columns: projectColumns,
};

const punchInFields = {
  activity_uuid: { to: 'activityId', kind: uuid },
  notes: { to: 'notes', kind: text },
  tag_list: { to: 'tagList', kind: tagList },
} as const;

const punchIn = ({ params }: RouteInput, fields: Record<string, unknown>) => ({
  ...inCompany(params),
  id: params.uuid,
  input: fields,
});
const punchOut = ({ params }: RouteInput, fields: Record<string, unknown>) => ({
  ...inCompany(params),
  id: params.uuid,
  notes: fields.notes,
});

/** Flat and company-nested forms of the same acts. */
function projectRoutes(prefix: '' | '/companies/:company_uuid', where: string): JsonRoute[] {
  const scope = prefix ? inCompany : undefined;
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
      scope,
    ),
    deleteRoute(
      projectResource,
      `${prefix}/projects/:uuid`,
      'DeleteProject',
      `Delete a project${where} with its activities and shifts`,
      scope,
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
