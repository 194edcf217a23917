import { z } from 'zod';
import {
  boolean,
  centsFromAmount,
  integer,
  tagList,
  tagText,
  text,
  textValue,
  uuid,
  uuidList,
} from '../json/input-fields';
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
import { resourceTables, type ResourceFields } from '../json/resource-fields';
import type { MappedInput } from '../operation-types';
import type { ProjectFieldsFragment, ProjectOrderField } from '../operations/generated';
import type { RouteInput } from '../route-table';
import { activityWire, renderActivity } from './activities.routes';
import { VISIBILITY, VISIBILITY_COLUMN } from './companies.routes';
import { renderShift, shiftWire } from './shifts.routes';
import { asStringBoolean, lower, stringBoolean, uuidField, withOwner } from './wire-types';

/** A project as every project operation answers it (fragment ProjectFields). */
export type ProjectNode = ProjectFieldsFragment;

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
    code: z
      .string()
      .optional()
      .meta({ description: 'The short code for invoices and exports; only when set' }),
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
    // Only when set, so that clients that never set one read the representation they always did.
    ...(p.code === null ? {} : { code: p.code }),
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

/** The fields clients write and query, once each (resource-fields.ts); XML shares some rows. */
export const PROJECT_FIELDS = {
  name: { to: 'name', kind: text, column: { type: 'string', order: 'NAME' } },
  active: { to: 'active', kind: boolean, column: { type: 'string-boolean', order: 'ACTIVE' } },
  company_uuid: { to: 'companyId', kind: uuid, column: { type: 'uuid', order: 'COMPANY_ID' } },
  visibility: {
    to: 'visibility',
    kind: VISIBILITY,
    column: { type: VISIBILITY_COLUMN, order: 'VISIBILITY' },
  },
  user_uuids: { to: 'userIds', kind: uuidList },
  time_limit: { to: 'timeLimit', kind: integer, column: { type: 'integer', order: 'TIME_LIMIT' } },
  time_limit_string: {
    to: 'timeLimitString',
    kind: text,
    column: { type: 'string', order: 'TIME_LIMIT_STRING' },
  },
  default_tags: { to: 'defaultTagsText', kind: tagText },
  tag_list: { to: 'tagList', kind: tagList },
  notes: { to: 'notes', kind: text, column: { type: 'string', order: 'NOTES' } },
  hourly_rate: { to: 'hourlyRate', kind: text, column: { type: 'string', order: 'HOURLY_RATE' } },
  hourly_rate_cents: {
    to: 'hourlyRateCents',
    kind: integer,
    column: { type: 'integer', order: 'HOURLY_RATE_CENTS' },
  },
  invoice_amount: { to: 'invoiceAmountCents', kind: centsFromAmount },
  billable_by_default: {
    to: 'billableByDefault',
    kind: boolean,
    column: { type: 'boolean', order: 'BILLABLE_BY_DEFAULT' },
  },
  code: { to: 'code', kind: text, column: { type: 'string', order: 'CODE' } },
} as const satisfies ResourceFields<ProjectOrderField>;

const projectTables = resourceTables(
  { to: 'id', kind: uuid, column: { type: 'uuid', order: 'ID' } },
  PROJECT_FIELDS,
);

export const projectColumns = projectTables.columns;

export const projectResource: JsonResource<ProjectNode, ProjectWire, ProjectOrderField, 'project'> =
  {
    key: 'project',
    named: (value) => ({ project: value }),
    entity: 'Project',
    legacyEntity: 'Project',
    wire: projectWire,
    render: renderProject,
    ...projectTables,
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
