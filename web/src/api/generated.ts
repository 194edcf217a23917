/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** The roles a user can be given; the owner is made with the account. */
export type AssignableStaffType =
  /** Manages companies, projects, activities, shifts and staff members; only the owner makes one. */
  | 'MANAGER'
  /** Logs and sees their own shifts on the projects they can see. */
  | 'STAFF';

/** Compares a true/false field; every condition given must hold. */
export type BooleanFilter = {
  /** Equal to this value. */
  eq?: boolean | null | undefined;
  /** True: the field is null; false: it has a value. */
  isNull?: boolean | null | undefined;
  /** Not equal to this value; a null field matches neither `eq` nor `ne`. */
  ne?: boolean | null | undefined;
};

/** Omitted fields keep their value on update. */
export type CompanyInput = {
  /** The contact person's e-mail address. At most 255 characters. */
  contactEmailAddress?: string | null | undefined;
  /** The contact person's first name. At most 255 characters. */
  contactFirstName?: string | null | undefined;
  /** The contact person's home phone number. At most 255 characters. */
  contactHomePhone?: string | null | undefined;
  /** The contact person's last name. At most 255 characters. */
  contactLastName?: string | null | undefined;
  /** The contact person's mobile phone number. At most 255 characters. */
  contactMobilePhone?: string | null | undefined;
  /** The contact person's position in the company. At most 255 characters. */
  contactPosition?: string | null | undefined;
  /** The contact person's salutation (Mr, Ms, Dr, ...). At most 255 characters. */
  contactSalutation?: string | null | undefined;
  /** The company's fax number. At most 255 characters. */
  faxPhone?: string | null | undefined;
  /** Degrees, north positive. When both are left empty and all five address fields are filled, a save that sets the address looks them up. From -90 to 90. */
  latitude?: number | null | undefined;
  /** Degrees, east positive; looked up like `latitude`. From -180 to 180. */
  longitude?: number | null | undefined;
  /** The street address of the company's main office. At most 255 characters. */
  mainAddress?: string | null | undefined;
  /** The city of the company's main office. At most 255 characters. */
  mainCity?: string | null | undefined;
  /** The country of the company's main office. At most 255 characters. */
  mainCountry?: string | null | undefined;
  /** The company's main phone number. At most 255 characters. */
  mainPhone?: string | null | undefined;
  /** The postcode of the company's main office. At most 255 characters. */
  mainPostcode?: string | null | undefined;
  /** The state or region of the company's main office. At most 255 characters. */
  mainState?: string | null | undefined;
  /** The company's name. Not blank, at most 255 characters. */
  name?: string | null | undefined;
  /** Free-text notes. At most 10,000 characters. */
  notes?: string | null | undefined;
  /** Users of CUSTOM visibility, by uuid. */
  userIds?: Array<string | number> | null | undefined;
  /** Users of CUSTOM visibility, by integer id. */
  userLegacyIds?: Array<number> | null | undefined;
  /** Who sees the company: PUBLIC everyone in the account, PRIVATE the owner and its creator, CUSTOM those and the listed users. PRIVATE when omitted on create. */
  visibility?: Visibility | null | undefined;
  /** The company's web site. At most 255 characters. */
  website?: string | null | undefined;
};

/** Names one company by exactly one of `id` and `legacyId`. */
export type CompanyRef =
  {   /** The company's uuid. */
  id: string | number; legacyId?: never; }
  |  { id?: never;   /** The company's integer id (the XML interface's id). */
  legacyId: number; };

/** A new company (owners and managers). */
export type CreateCompanyInput = {
  /** The contact person's e-mail address. At most 255 characters. */
  contactEmailAddress?: string | null | undefined;
  /** The contact person's first name. At most 255 characters. */
  contactFirstName?: string | null | undefined;
  /** The contact person's home phone number. At most 255 characters. */
  contactHomePhone?: string | null | undefined;
  /** The contact person's last name. At most 255 characters. */
  contactLastName?: string | null | undefined;
  /** The contact person's mobile phone number. At most 255 characters. */
  contactMobilePhone?: string | null | undefined;
  /** The contact person's position in the company. At most 255 characters. */
  contactPosition?: string | null | undefined;
  /** The contact person's salutation (Mr, Ms, Dr, ...). At most 255 characters. */
  contactSalutation?: string | null | undefined;
  /** The company's fax number. At most 255 characters. */
  faxPhone?: string | null | undefined;
  /** A uuid of your choice; generated when omitted. */
  id?: string | number | null | undefined;
  /** Degrees, north positive. When both are left empty and all five address fields are filled, a save that sets the address looks them up. From -90 to 90. */
  latitude?: number | null | undefined;
  /** Degrees, east positive; looked up like `latitude`. From -180 to 180. */
  longitude?: number | null | undefined;
  /** The street address of the company's main office. At most 255 characters. */
  mainAddress?: string | null | undefined;
  /** The city of the company's main office. At most 255 characters. */
  mainCity?: string | null | undefined;
  /** The country of the company's main office. At most 255 characters. */
  mainCountry?: string | null | undefined;
  /** The company's main phone number. At most 255 characters. */
  mainPhone?: string | null | undefined;
  /** The postcode of the company's main office. At most 255 characters. */
  mainPostcode?: string | null | undefined;
  /** The state or region of the company's main office. At most 255 characters. */
  mainState?: string | null | undefined;
  /** The company's name. Not blank, at most 255 characters. */
  name: string;
  /** Free-text notes. At most 10,000 characters. */
  notes?: string | null | undefined;
  /** Users of CUSTOM visibility, by uuid. */
  userIds?: Array<string | number> | null | undefined;
  /** Users of CUSTOM visibility, by integer id. */
  userLegacyIds?: Array<number> | null | undefined;
  /** Who sees the company: PUBLIC everyone in the account, PRIVATE the owner and its creator, CUSTOM those and the listed users. PRIVATE when omitted on create. */
  visibility?: Visibility | null | undefined;
  /** The company's web site. At most 255 characters. */
  website?: string | null | undefined;
};

/** A new project of a company (owners and managers): give the company by `companyId` or `companyLegacyId`. */
export type CreateProjectInput = {
  /** Whether the project can be punched in to; true when omitted on create. */
  active?: boolean | null | undefined;
  /** The default of `billable` for new shifts on the project; true when omitted on create. */
  billableByDefault?: boolean | null | undefined;
  /** A short code for invoices and exports ("ACME-01"): letters, digits, `-`, `_` and `.`, at most 32; unique within the account. At most 32 characters. */
  code?: string | null | undefined;
  /** The project's company (uuid); give this or `companyLegacyId`. */
  companyId?: string | number | null | undefined;
  /** The project's company (integer id); give this or `companyId`. */
  companyLegacyId?: number | null | undefined;
  /** Tags copied onto each new running shift on punch-in. Give this or `defaultTagsText`. At most 50 of up to 64 characters. */
  defaultTags?: Array<string> | null | undefined;
  /** Comma-separated, kept as written; sets `defaultTags`. Give this or `defaultTags`. At most 4,096 characters. */
  defaultTagsText?: string | null | undefined;
  /** The hourly rate as written ("$85", "$12.50"); fills `hourlyRateCents` when that is omitted or null. At most 255 characters. */
  hourlyRate?: string | null | undefined;
  /** The hourly rate in cents. Not negative, at most 2,000,000,000. */
  hourlyRateCents?: number | null | undefined;
  /** A uuid of your choice; generated when omitted. */
  id?: string | number | null | undefined;
  /** The amount invoiced for the project, in cents. From -2,000,000,000 to 2,000,000,000. */
  invoiceAmountCents?: number | null | undefined;
  /** The project's name. Not blank, at most 255 characters. */
  name: string;
  /** Free-text notes. At most 10,000 characters. */
  notes?: string | null | undefined;
  /** Tags of the project itself; shifts do not get them (they get `defaultTags` on punch-in). At most 50 of up to 64 characters. */
  tagList?: Array<string> | null | undefined;
  /** The time budget of the project in seconds (of every user's shifts); null: no limit. Set directly or read from `timeLimitString`. Not negative, at most 2,000,000,000. */
  timeLimit?: number | null | undefined;
  /** The time limit as entered ("12h", "2h 30m", "1:30"); it fills `timeLimit` when that is not given. At most 255 characters. */
  timeLimitString?: string | null | undefined;
  /** Users of CUSTOM visibility, by uuid; replaces the list. */
  userIds?: Array<string | number> | null | undefined;
  /** Users of CUSTOM visibility, by integer id; replaces the list. */
  userLegacyIds?: Array<number> | null | undefined;
  /** Who sees the project (whatever its company's visibility): PUBLIC everyone in the account, PRIVATE the owner and its creator, CUSTOM those and the listed users. PRIVATE when omitted on create. */
  visibility?: Visibility | null | undefined;
};

/** A new shift: running when `stop` is omitted or null. Give the project by `projectId` or `projectLegacyId`, and `start` or `localStartAsString`. */
export type CreateShiftInput = {
  /** One of the project's activities (uuid); null: none. */
  activityId?: string | number | null | undefined;
  /** One of the project's activities (integer id); give this or `activityId`. */
  activityLegacyId?: number | null | undefined;
  /** The project's billableByDefault when omitted. */
  billable?: boolean | null | undefined;
  /** Where the shift came from, when created on an external site. At most 2,048 characters. */
  externalHref?: string | null | undefined;
  /** A uuid of your choice; generated when omitted. */
  id?: string | number | null | undefined;
  /** Human-readable wall time in the shift's zone; overrides start. */
  localStartAsString?: string | null | undefined;
  /** Human-readable wall time in the shift's zone; overrides stop. */
  localStopAsString?: string | null | undefined;
  /** Free-text notes; a punch-out appends its notes on a new line. At most 10,000 characters. */
  notes?: string | null | undefined;
  /** The shift's project (uuid); give this or `projectLegacyId`. */
  projectId?: string | number | null | undefined;
  /** The shift's project (integer id); give this or `projectId`. */
  projectLegacyId?: number | null | undefined;
  /** When the shift started; required on create unless `localStartAsString` is given. */
  start?: string | null | undefined;
  /** Null or omitted on create: the shift is running. */
  stop?: string | null | undefined;
  /** The shift's tags; none when omitted on create. At most 50 of up to 64 characters. */
  tagList?: Array<string> | null | undefined;
  /** IANA zone; the user's zone when omitted on create. */
  timeZone?: string | null | undefined;
  /** The user who worked (uuid); the caller when omitted on create. Only owners and managers may name another user. */
  userId?: string | number | null | undefined;
  /** The user who worked (integer id); give this or `userId`. */
  userLegacyId?: number | null | undefined;
};

/** A new user (owners and managers); only the owner creates managers. */
export type CreateStaffInput = {
  /** Whether the user may sign in; true when omitted on create. Enabling a user counts against the plan's staff maximum. */
  active?: boolean | null | undefined;
  /** What an hour of the user's work costs, in cents (owner and managers). Not negative, at most 2,000,000,000. */
  costRateCents?: number | null | undefined;
  /** The e-mail address (or empty); empty when omitted on create. At most 255 characters. */
  emailAddress?: string | null | undefined;
  /** The first name; empty when omitted on create. At most 255 characters. */
  firstName?: string | null | undefined;
  /** The user's hourly rate in cents. Not negative, at most 2,000,000,000. */
  hourlyRateCents?: number | null | undefined;
  /** A uuid of your choice; generated when omitted. */
  id?: string | number | null | undefined;
  /** The last name; empty when omitted on create. At most 255 characters. */
  lastName?: string | null | undefined;
  /** Without ":"; unique in the service (any case). Not blank, at most 255 characters. */
  login: string;
  /** Write-only; at least 8 characters. */
  password: string;
  /** IANA time zone; UTC when omitted. */
  timeZone?: string | null | undefined;
  /** The role; STAFF when omitted on create. Only the owner makes or changes managers. */
  type?: AssignableStaffType | null | undefined;
};

/** Compares an instant (a `DateTimeISO` field); every condition given must hold. */
export type DateTimeFilter = {
  /** At exactly this instant. */
  eq?: string | null | undefined;
  /** After this instant. */
  gt?: string | null | undefined;
  /** At or after this instant. */
  gte?: string | null | undefined;
  /** true: the field is null (a running shift's `stop`); false: it has a value. */
  isNull?: boolean | null | undefined;
  /** Before this instant. */
  lt?: string | null | undefined;
  /** At or before this instant. */
  lte?: string | null | undefined;
  /** At any other instant; a null field matches neither `eq` nor `ne`. */
  ne?: string | null | undefined;
};

/** Deletes a shift (its user, or an owner or manager). */
export type DeleteShiftInput = {
  /** Only if the shift belongs to this project. */
  inProject?: ProjectRef | null | undefined;
  /** The shift to delete. */
  shift: ShiftRef;
};

/** Stops a user signing in (owners and managers). */
export type DisableStaffInput = {
  /** The user. */
  staff: StaffRef;
};

/** Lets a user sign in again (owners and managers). */
export type EnableStaffInput = {
  /** The user. */
  staff: StaffRef;
};

/** Compares identifiers (UUIDs); every condition given must hold. lt, lte, gt and gte follow the order of the `ID` order fields. */
export type IdFilter = {
  /** This uuid. */
  eq?: string | number | null | undefined;
  /** After this uuid in the order of the `ID` order fields. */
  gt?: string | number | null | undefined;
  /** After this uuid or equal to it. */
  gte?: string | number | null | undefined;
  /** One of these uuids (at most 200). */
  in?: Array<string | number> | null | undefined;
  /** True: the field is null (a shift without an activity); false: it has a value. */
  isNull?: boolean | null | undefined;
  /** Before this uuid in the order of the `ID` order fields. */
  lt?: string | number | null | undefined;
  /** Before this uuid or equal to it. */
  lte?: string | number | null | undefined;
  /** Any uuid but this one; a null field matches neither `eq` nor `ne`. */
  ne?: string | number | null | undefined;
};

/** Compares an integer field; every condition given must hold. */
export type IntFilter = {
  /** Equal to this number. */
  eq?: number | null | undefined;
  /** Greater than this number. */
  gt?: number | null | undefined;
  /** Greater than or equal to this number. */
  gte?: number | null | undefined;
  /** Equal to one of these numbers (at most 200). */
  in?: Array<number> | null | undefined;
  /** True: the field is null; false: it has a value. */
  isNull?: boolean | null | undefined;
  /** Less than this number. */
  lt?: number | null | undefined;
  /** Less than or equal to this number. */
  lte?: number | null | undefined;
  /** Not equal to this number; a null field matches neither `eq` nor `ne`. */
  ne?: number | null | undefined;
};

/** Omitted fields keep their value on update. */
export type ProjectInput = {
  /** Whether the project can be punched in to; true when omitted on create. */
  active?: boolean | null | undefined;
  /** The default of `billable` for new shifts on the project; true when omitted on create. */
  billableByDefault?: boolean | null | undefined;
  /** A short code for invoices and exports ("ACME-01"): letters, digits, `-`, `_` and `.`, at most 32; unique within the account. At most 32 characters. */
  code?: string | null | undefined;
  /** Moves the project to another company (uuid). */
  companyId?: string | number | null | undefined;
  /** Moves the project to another company (integer id). */
  companyLegacyId?: number | null | undefined;
  /** Tags copied onto each new running shift on punch-in. Give this or `defaultTagsText`. At most 50 of up to 64 characters. */
  defaultTags?: Array<string> | null | undefined;
  /** Comma-separated, kept as written; sets `defaultTags`. Give this or `defaultTags`. At most 4,096 characters. */
  defaultTagsText?: string | null | undefined;
  /** The hourly rate as written ("$85", "$12.50"); fills `hourlyRateCents` when that is omitted or null. At most 255 characters. */
  hourlyRate?: string | null | undefined;
  /** The hourly rate in cents. Not negative, at most 2,000,000,000. */
  hourlyRateCents?: number | null | undefined;
  /** The amount invoiced for the project, in cents. From -2,000,000,000 to 2,000,000,000. */
  invoiceAmountCents?: number | null | undefined;
  /** The project's name. Not blank, at most 255 characters. */
  name?: string | null | undefined;
  /** Free-text notes. At most 10,000 characters. */
  notes?: string | null | undefined;
  /** Tags of the project itself; shifts do not get them (they get `defaultTags` on punch-in). At most 50 of up to 64 characters. */
  tagList?: Array<string> | null | undefined;
  /** The time budget of the project in seconds (of every user's shifts); null: no limit. Set directly or read from `timeLimitString`. Not negative, at most 2,000,000,000. */
  timeLimit?: number | null | undefined;
  /** The time limit as entered ("12h", "2h 30m", "1:30"); it fills `timeLimit` when that is not given. At most 255 characters. */
  timeLimitString?: string | null | undefined;
  /** Users of CUSTOM visibility, by uuid; replaces the list. */
  userIds?: Array<string | number> | null | undefined;
  /** Users of CUSTOM visibility, by integer id; replaces the list. */
  userLegacyIds?: Array<number> | null | undefined;
  /** Who sees the project (whatever its company's visibility): PUBLIC everyone in the account, PRIVATE the owner and its creator, CUSTOM those and the listed users. PRIVATE when omitted on create. */
  visibility?: Visibility | null | undefined;
};

/** Names one project by exactly one of `id` and `legacyId`. */
export type ProjectRef =
  {   /** The project's uuid. */
  id: string | number; legacyId?: never; }
  |  { id?: never;   /** The project's integer id (the XML interface's id). */
  legacyId: number; };

/** Starts a running shift for the caller on a project. */
export type PunchInInput = {
  /** The running shift's activity (uuid); one of the project's activities. */
  activityId?: string | number | null | undefined;
  /** The running shift's activity (integer id); give this or `activityId`. */
  activityLegacyId?: number | null | undefined;
  /** Only if the project belongs to this company. */
  inCompany?: CompanyRef | null | undefined;
  /** The running shift's notes. At most 10,000 characters. */
  notes?: string | null | undefined;
  /** The project to punch in to. */
  project: ProjectRef;
  /** Tags of the running shift, added to the project's default tags. At most 50 of up to 64 characters. */
  tagList?: Array<string> | null | undefined;
};

/** Stops the caller's running shift on a project. */
export type PunchOutInput = {
  /** Only if the project belongs to this company. */
  inCompany?: CompanyRef | null | undefined;
  /** Appended to the stopped shift's notes on a line of their own. At most 10,000 characters. */
  notes?: string | null | undefined;
  /** The project to punch out of. */
  project: ProjectRef;
};

/** Which rate: what an hour bills, or what it costs. */
export type RateKind =
  /** What an hour bills: a project's, else its user's. */
  | 'BILLABLE'
  /** What an hour of a user's work costs the account. */
  | 'COST';

/** A calendar period in the report's time zone; a shift crossing a period's end is split between periods. */
export type ReportBucket =
  /** Local midnight to midnight (23 or 25 hours on the days clocks change). */
  | 'DAY'
  /** The first of the month 00:00 to the first of the next. */
  | 'MONTH'
  /** ISO weeks: Monday 00:00 to the next Monday 00:00. */
  | 'WEEK'
  /** January 1 00:00 to the next January 1. */
  | 'YEAR';

/** A key of report rows. TAG counts a shift once under each of its tags (a shift without tags under null). */
export type ReportDimension =
  /** The shift's activity (null: none). */
  | 'ACTIVITY'
  /** The shift's billable flag. */
  | 'BILLABLE'
  /** The project's company. */
  | 'COMPANY'
  /** The shift's notes, exactly as written (null: none). */
  | 'NOTES'
  /** The project. */
  | 'PROJECT'
  /** Each tag of the shift; a shift with two tags counts in both rows, so rows can add up to more than the totals. */
  | 'TAG'
  /** The user who worked. */
  | 'USER';

/** Only shifts matching every given condition count; an omitted list or flag does not filter. */
export type ReportFilter = {
  /** Shifts with these activities (uuids). */
  activityIds?: Array<string | number> | null | undefined;
  /** Only billable (true) or only non-billable (false) shifts. */
  billable?: boolean | null | undefined;
  /** Shifts on projects of these companies (uuids). */
  companyIds?: Array<string | number> | null | undefined;
  /** Shifts on these projects (uuids). */
  projectIds?: Array<string | number> | null | undefined;
  /** Shifts carrying at least one of these tags (exact, case-sensitive). When grouping by TAG, only these tags make rows. */
  tags?: Array<string> | null | undefined;
  /** Shifts of these users (uuids). */
  userIds?: Array<string | number> | null | undefined;
};

/** A time report: what to count, over which range, grouped how. */
export type ReportInput = {
  /** Also group by calendar period in `timeZone`; omitted: no time grouping. */
  bucket?: ReportBucket | null | undefined;
  /** With a bucket: a row of zeros for every period of the range in which a group (or, without groupBy, the report) has no time, so a chart needs no gap filling. */
  fillEmpty?: boolean;
  /** Which shifts count; omitted: every shift the caller can see. */
  filter?: ReportFilter | null | undefined;
  /** Start of the range (inclusive); give it or `fromDate`. Shifts count only for their part inside [from, to). */
  from?: string | null | undefined;
  /** Start of the range as a date: its 00:00 in `timeZone`. Instead of `from`. */
  fromDate?: string | null | undefined;
  /** Row keys, in the order rows are sorted by; empty: one row for everything. */
  groupBy: Array<ReportDimension>;
  /** Round durations (and the amounts that follow them); omitted: exact seconds. */
  rounding?: ReportRounding | null | undefined;
  /** Also a subtotal row after each group of rows sharing the leading keys (SQL ROLLUP over `groupBy`, then the bucket), down to one row for the whole report; see `ReportRow.level`. */
  subtotals?: boolean;
  /** IANA zone of the buckets (e.g. Europe/Berlin); the caller's own zone when omitted. */
  timeZone?: string | null | undefined;
  /** End of the range (exclusive); give it or `toDate`. After `from`, at most 3,660 days later. */
  to?: string | null | undefined;
  /** End of the range as a date, exclusive: its 00:00 in `timeZone` (`toDate: "2027-01-01"` ends 2026). Instead of `to`. */
  toDate?: string | null | undefined;
  /** The first day of a WEEK bucket (ISO weeks start on Monday). */
  weekStart?: WeekStart;
};

/** Rounding of durations, as time trackers bill them. */
export type ReportRounding = {
  /** Up, down or to the nearest multiple (the default). */
  direction?: RoundingDirection;
  /** Round to multiples of this many minutes (1 to 1,440). */
  minutes: number;
  /** Each shift (the default) or each row. */
  scope?: RoundingScope;
};

/** Which way a duration goes to a multiple of `minutes`. */
export type RoundingDirection =
  /** To the multiple below. */
  | 'DOWN'
  /** To the nearest multiple; halves go up. */
  | 'NEAREST'
  /** To the next multiple (1 second over 15 minutes counts 30). */
  | 'UP';

/** What is rounded. */
export type RoundingScope =
  /** Each shift's time in a row (its part in the row's period), before it is summed; the amounts follow the rounded time. */
  | 'ENTRY'
  /** Each row's sums, and the totals as one row; a row's amount changes in proportion to its billable time. */
  | 'ROW';

/** A rate in force from an instant, for a project or a user (exactly one). An entry from the same instant is replaced. */
export type SetRateInput = {
  /** Cents an hour, not negative; null: no rate from then on. */
  cents?: number | null | undefined;
  /** From when: shifts starting at or after it are priced by this rate until the next entry; a past instant reprices them. */
  effectiveFrom: string;
  /** Billable (the default) or, for a user, cost. */
  kind?: RateKind;
  /** The project (a billable rate). */
  project?: ProjectRef | null | undefined;
  /** The user (a billable or cost rate). */
  user?: StaffRef | null | undefined;
};

/** Selects shifts: every field and combinator given must hold (AND); `or` and `not` express the rest. */
export type ShiftFilter = {
  /** The uuid of the shift's activity (`isNull: true`: shifts without one). */
  activityId?: IdFilter | null | undefined;
  /** The integer id of the shift's activity (`isNull: true`: shifts without one). */
  activityLegacyId?: IntFilter | null | undefined;
  /** Every one of these filters must match. */
  and?: Array<ShiftFilter> | null | undefined;
  /** Whether the shift is billable. */
  billable?: BooleanFilter | null | undefined;
  /** When the row was created. */
  createdAt?: DateTimeFilter | null | undefined;
  /** Where the shift came from (`externalHref`). */
  externalHref?: StringFilter | null | undefined;
  /** The uuid. */
  id?: IdFilter | null | undefined;
  /** The integer id. */
  legacyId?: IntFilter | null | undefined;
  /** This filter must not match. */
  not?: ShiftFilter | null | undefined;
  /** The shift's notes. */
  notes?: StringFilter | null | undefined;
  /** At least one of these filters must match. */
  or?: Array<ShiftFilter> | null | undefined;
  /** The uuid of the shift's project. */
  projectId?: IdFilter | null | undefined;
  /** The integer id of the shift's project. */
  projectLegacyId?: IntFilter | null | undefined;
  /** When the shift started. */
  start?: DateTimeFilter | null | undefined;
  /** When the shift stopped; `isNull: true` selects running shifts. */
  stop?: DateTimeFilter | null | undefined;
  /** The shift's IANA time zone name. */
  timeZone?: StringFilter | null | undefined;
  /** When it last changed. Incremental sync: `{ gte: <watermark> }` finds what changed since (docs/sync.md). */
  updatedAt?: DateTimeFilter | null | undefined;
  /** The uuid of the user who worked. */
  userId?: IdFilter | null | undefined;
  /** The integer id of the user who worked. */
  userLegacyId?: IntFilter | null | undefined;
};

/** Omitted fields keep their value on update. */
export type ShiftInput = {
  /** One of the project's activities (uuid); null: none. */
  activityId?: string | number | null | undefined;
  /** One of the project's activities (integer id); give this or `activityId`. */
  activityLegacyId?: number | null | undefined;
  /** The project's billableByDefault when omitted. */
  billable?: boolean | null | undefined;
  /** Where the shift came from, when created on an external site. At most 2,048 characters. */
  externalHref?: string | null | undefined;
  /** Human-readable wall time in the shift's zone; overrides start. */
  localStartAsString?: string | null | undefined;
  /** Human-readable wall time in the shift's zone; overrides stop. */
  localStopAsString?: string | null | undefined;
  /** Free-text notes; a punch-out appends its notes on a new line. At most 10,000 characters. */
  notes?: string | null | undefined;
  /** Moves the shift to another project (uuid). */
  projectId?: string | number | null | undefined;
  /** Moves the shift to another project (integer id). */
  projectLegacyId?: number | null | undefined;
  /** When the shift started; required on create unless `localStartAsString` is given. */
  start?: string | null | undefined;
  /** Null or omitted on create: the shift is running. */
  stop?: string | null | undefined;
  /** The shift's tags; none when omitted on create. At most 50 of up to 64 characters. */
  tagList?: Array<string> | null | undefined;
  /** IANA zone; the user's zone when omitted on create. */
  timeZone?: string | null | undefined;
  /** The user who worked (uuid); the caller when omitted on create. Only owners and managers may name another user. */
  userId?: string | number | null | undefined;
  /** The user who worked (integer id); give this or `userId`. */
  userLegacyId?: number | null | undefined;
};

/** Names one shift by exactly one of `id` and `legacyId`. */
export type ShiftRef =
  {   /** The shift's uuid. */
  id: string | number; legacyId?: never; }
  |  { id?: never;   /** The shift's integer id (the XML interface's id). */
  legacyId: number; };

/** Names one user by exactly one of `id` and `legacyId`. */
export type StaffRef =
  {   /** The user's uuid. */
  id: string | number; legacyId?: never; }
  |  { id?: never;   /** The user's integer id (the XML interface's id). */
  legacyId: number; };

/** The role of a user: the account owner, a manager, or a staff member. */
export type StaffType =
  /** Manages staff members (not managers), companies, projects and activities; sees the companies and projects visible to them, their own shifts and every shift on those projects. */
  | 'MANAGER'
  /** The one user who opened the account: sees and may do everything in it. */
  | 'OWNER'
  /** Sees the companies and projects visible to them, but only their own shifts and staff record; punches in and out and records their own time. */
  | 'STAFF';

/** Compares a text field; every condition given must hold. `like` is a case-insensitive SQL LIKE: `%` and `_` are wildcards, `\` makes the next character literal (a `\` at the end is a literal backslash). */
export type StringFilter = {
  /** Equal to this text (case-sensitive). */
  eq?: string | null | undefined;
  /** Sorts after this text (in the database collation). */
  gt?: string | null | undefined;
  /** Sorts after this text or equals it. */
  gte?: string | null | undefined;
  /** Equal to one of these texts (at most 200). */
  in?: Array<string> | null | undefined;
  /** True: the field is null; false: it has a value. */
  isNull?: boolean | null | undefined;
  /** Matches this case-insensitive pattern: `%` any run of characters, `_` one character; nothing is added implicitly. */
  like?: string | null | undefined;
  /** Sorts before this text (in the database collation). */
  lt?: string | null | undefined;
  /** Sorts before this text or equals it. */
  lte?: string | null | undefined;
  /** Not equal to this text (case-sensitive); a null field matches neither `eq` nor `ne`. */
  ne?: string | null | undefined;
};

/** Changes a company (owners and managers). */
export type UpdateCompanyInput = {
  /** The company to change. */
  company: CompanyRef;
  /** The fields to change; omitted ones keep their value. */
  patch: CompanyInput;
};

/** Changes a project (owners and managers). */
export type UpdateProjectInput = {
  /** Only if the project belongs to this company. */
  inCompany?: CompanyRef | null | undefined;
  /** The fields to change; omitted ones keep their value. */
  patch: ProjectInput;
  /** The project to change. */
  project: ProjectRef;
};

/** Changes a shift (its user, or an owner or manager). */
export type UpdateShiftInput = {
  /** Only if the shift belongs to this project. */
  inProject?: ProjectRef | null | undefined;
  /** The fields to change; omitted ones keep their value. */
  patch: ShiftInput;
  /** The shift to change. */
  shift: ShiftRef;
};

/** PUBLIC: every user of the account; PRIVATE: the owner and the creator; CUSTOM: the owner, the creator and the listed users. */
export type Visibility =
  /** The owner, the user who created it and the users of its member list see it. */
  | 'CUSTOM'
  /** Only the owner and the user who created it see it. */
  | 'PRIVATE'
  /** Every user of the account sees it. */
  | 'PUBLIC';

/** The day a WEEK bucket starts on, at 00:00 of the report's zone. */
export type WeekStart =
  /** ISO weeks (the default). */
  | 'MONDAY'
  /** Saturday to Friday. */
  | 'SATURDAY'
  /** Sunday to Saturday. */
  | 'SUNDAY';

export type ViewerFieldsFragment = { staff: { id: string, login: string | null, firstName: string, lastName: string, type: StaffType, timeZone: string }, account: { currency: string, staffSeeMoney: boolean } };

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { viewer: { staff: { id: string, login: string | null, firstName: string, lastName: string, type: StaffType, timeZone: string }, account: { currency: string, staffSeeMoney: boolean } } };

export type TimerProjectFragment = { id: string, name: string, timeLeft: number | null, overdue: boolean | null, nearlyOverdue: boolean | null, running: boolean, startedAt: string | null, runningTotal: number, company: { id: string, name: string } | null, activities: Array<{ id: string, name: string }> };

export type TimerProjectsQueryVariables = Exact<{ [key: string]: never; }>;


export type TimerProjectsQuery = { projects: { nodes: Array<{ id: string, name: string, timeLeft: number | null, overdue: boolean | null, nearlyOverdue: boolean | null, running: boolean, startedAt: string | null, runningTotal: number, company: { id: string, name: string } | null, activities: Array<{ id: string, name: string }> }> } };

export type PunchInMutationVariables = Exact<{
  input: PunchInInput;
}>;


export type PunchInMutation = { punchIn: { project: { id: string, name: string, timeLeft: number | null, overdue: boolean | null, nearlyOverdue: boolean | null, running: boolean, startedAt: string | null, runningTotal: number, company: { id: string, name: string } | null, activities: Array<{ id: string, name: string }> }, stoppedShifts: Array<{ id: string, project: { id: string, name: string, timeLeft: number | null, overdue: boolean | null, nearlyOverdue: boolean | null, running: boolean, startedAt: string | null, runningTotal: number, company: { id: string, name: string } | null, activities: Array<{ id: string, name: string }> } | null }> } };

export type PunchOutMutationVariables = Exact<{
  input: PunchOutInput;
}>;


export type PunchOutMutation = { punchOut: { project: { id: string, name: string, timeLeft: number | null, overdue: boolean | null, nearlyOverdue: boolean | null, running: boolean, startedAt: string | null, runningTotal: number, company: { id: string, name: string } | null, activities: Array<{ id: string, name: string }> } } };

export type ShiftEventsSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type ShiftEventsSubscription = { shiftEvents: { project: { id: string, name: string, timeLeft: number | null, overdue: boolean | null, nearlyOverdue: boolean | null, running: boolean, startedAt: string | null, runningTotal: number, company: { id: string, name: string } | null, activities: Array<{ id: string, name: string }> } | null } };

export type WeekShiftFragment = { id: string, start: string, stop: string | null, notes: string | null, billable: boolean, project: { id: string, name: string } | null };

export type WeekShiftsQueryVariables = Exact<{
  filter: ShiftFilter;
  after?: string | null | undefined;
}>;


export type WeekShiftsQuery = { shifts: { nodes: Array<{ id: string, start: string, stop: string | null, notes: string | null, billable: boolean, project: { id: string, name: string } | null }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type CreateShiftMutationVariables = Exact<{
  input: CreateShiftInput;
}>;


export type CreateShiftMutation = { createShift: { shift: { id: string, start: string, stop: string | null, notes: string | null, billable: boolean, project: { id: string, name: string } | null } } };

export type UpdateShiftMutationVariables = Exact<{
  input: UpdateShiftInput;
}>;


export type UpdateShiftMutation = { updateShift: { shift: { id: string, start: string, stop: string | null, notes: string | null, billable: boolean, project: { id: string, name: string } | null } } };

export type DeleteShiftMutationVariables = Exact<{
  input: DeleteShiftInput;
}>;


export type DeleteShiftMutation = { deleteShift: { deletedShiftId: string } };

export type StaffFieldsFragment = { id: string, login: string | null, firstName: string, lastName: string, type: StaffType, active: boolean, timeZone: string, rates: Array<{ id: number, kind: RateKind, cents: number | null, effectiveFrom: string | null }> };

export type StaffListQueryVariables = Exact<{ [key: string]: never; }>;


export type StaffListQuery = { staff: { nodes: Array<{ id: string, login: string | null, firstName: string, lastName: string, type: StaffType, active: boolean, timeZone: string, rates: Array<{ id: number, kind: RateKind, cents: number | null, effectiveFrom: string | null }> }> } };

export type CreateStaffMutationVariables = Exact<{
  input: CreateStaffInput;
}>;


export type CreateStaffMutation = { createStaff: { staff: { id: string, login: string | null, firstName: string, lastName: string, type: StaffType, active: boolean, timeZone: string, rates: Array<{ id: number, kind: RateKind, cents: number | null, effectiveFrom: string | null }> } } };

export type EnableStaffMutationVariables = Exact<{
  input: EnableStaffInput;
}>;


export type EnableStaffMutation = { enableStaff: { staff: { id: string, login: string | null, firstName: string, lastName: string, type: StaffType, active: boolean, timeZone: string, rates: Array<{ id: number, kind: RateKind, cents: number | null, effectiveFrom: string | null }> } } };

export type DisableStaffMutationVariables = Exact<{
  input: DisableStaffInput;
}>;


export type DisableStaffMutation = { disableStaff: { staff: { id: string, login: string | null, firstName: string, lastName: string, type: StaffType, active: boolean, timeZone: string, rates: Array<{ id: number, kind: RateKind, cents: number | null, effectiveFrom: string | null }> } } };

export type AdminCompanyFragment = { id: string, name: string, visibility: Visibility, mainCity: string | null };

export type AdminProjectFragment = { id: string, name: string, active: boolean, visibility: Visibility, timeLimit: number | null, timeLimitString: string | null, timeLeft: number | null, hourlyRateCents: number | null, company: { id: string, name: string } | null, users: Array<{ id: string }>, rates: Array<{ id: number, kind: RateKind, cents: number | null, effectiveFrom: string | null }> };

export type AdminListsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminListsQuery = { companies: { nodes: Array<{ id: string, name: string, visibility: Visibility, mainCity: string | null }> }, projects: { nodes: Array<{ id: string, name: string, active: boolean, visibility: Visibility, timeLimit: number | null, timeLimitString: string | null, timeLeft: number | null, hourlyRateCents: number | null, company: { id: string, name: string } | null, users: Array<{ id: string }>, rates: Array<{ id: number, kind: RateKind, cents: number | null, effectiveFrom: string | null }> }> } };

export type CreateCompanyMutationVariables = Exact<{
  input: CreateCompanyInput;
}>;


export type CreateCompanyMutation = { createCompany: { company: { id: string, name: string, visibility: Visibility, mainCity: string | null } } };

export type UpdateCompanyMutationVariables = Exact<{
  input: UpdateCompanyInput;
}>;


export type UpdateCompanyMutation = { updateCompany: { company: { id: string, name: string, visibility: Visibility, mainCity: string | null } } };

export type CreateProjectMutationVariables = Exact<{
  input: CreateProjectInput;
}>;


export type CreateProjectMutation = { createProject: { project: { id: string, name: string, active: boolean, visibility: Visibility, timeLimit: number | null, timeLimitString: string | null, timeLeft: number | null, hourlyRateCents: number | null, company: { id: string, name: string } | null, users: Array<{ id: string }>, rates: Array<{ id: number, kind: RateKind, cents: number | null, effectiveFrom: string | null }> } } };

export type UpdateProjectMutationVariables = Exact<{
  input: UpdateProjectInput;
}>;


export type UpdateProjectMutation = { updateProject: { project: { id: string, name: string, active: boolean, visibility: Visibility, timeLimit: number | null, timeLimitString: string | null, timeLeft: number | null, hourlyRateCents: number | null, company: { id: string, name: string } | null, users: Array<{ id: string }>, rates: Array<{ id: number, kind: RateKind, cents: number | null, effectiveFrom: string | null }> } } };

export type SetRateMutationVariables = Exact<{
  input: SetRateInput;
}>;


export type SetRateMutation = { setRate: { rate: { id: number } } };

export type ReportSumsFieldsFragment = { seconds: number, billableSeconds: number, amountCents: number | null, costCents: number | null, profitCents: number | null };

export type ReportRowFieldsFragment = { bucketStart: string | null, billable: boolean | null, seconds: number, billableSeconds: number, amountCents: number | null, costCents: number | null, profitCents: number | null, project: { nodeId: string, name: string | null } | null, user: { staffId: string, login: string, firstName: string, lastName: string } | null };

export type DashboardQueryVariables = Exact<{
  byProject: ReportInput;
  byBillable: ReportInput;
  byPerson: ReportInput;
}>;


export type DashboardQuery = { byProject: { currency: string, totals: { seconds: number, billableSeconds: number, amountCents: number | null, costCents: number | null, profitCents: number | null }, rows: Array<{ bucketStart: string | null, billable: boolean | null, seconds: number, billableSeconds: number, amountCents: number | null, costCents: number | null, profitCents: number | null, project: { nodeId: string, name: string | null } | null, user: { staffId: string, login: string, firstName: string, lastName: string } | null }> }, byBillable: { rows: Array<{ bucketStart: string | null, billable: boolean | null, seconds: number, billableSeconds: number, amountCents: number | null, costCents: number | null, profitCents: number | null, project: { nodeId: string, name: string | null } | null, user: { staffId: string, login: string, firstName: string, lastName: string } | null }> }, byPerson: { rows: Array<{ bucketStart: string | null, billable: boolean | null, seconds: number, billableSeconds: number, amountCents: number | null, costCents: number | null, profitCents: number | null, project: { nodeId: string, name: string | null } | null, user: { staffId: string, login: string, firstName: string, lastName: string } | null }> }, projects: { nodes: Array<{ id: string, name: string, timeLimit: number | null, timeLeft: number | null }> } };

export type DashboardPeriodsQueryVariables = Exact<{
  drawn: ReportInput;
  followed: ReportInput;
}>;


export type DashboardPeriodsQuery = { drawn: { rows: Array<{ bucketStart: string | null, seconds: number, project: { nodeId: string } | null }> }, followed: { rows: Array<{ bucketStart: string | null, seconds: number, project: { nodeId: string } | null }> } };

export type PeriodRowFragment = { bucketStart: string | null, seconds: number, project: { nodeId: string } | null };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const ViewerFieldsFragmentDoc = new TypedDocumentString(`
    fragment ViewerFields on Viewer {
  staff {
    id
    login
    firstName
    lastName
    type
    timeZone
  }
  account {
    currency
    staffSeeMoney
  }
}
    `, {"fragmentName":"ViewerFields"}) as unknown as TypedDocumentString<ViewerFieldsFragment, unknown>;
export const TimerProjectFragmentDoc = new TypedDocumentString(`
    fragment TimerProject on Project {
  id
  name
  timeLeft
  overdue
  nearlyOverdue
  running
  startedAt
  runningTotal
  company {
    id
    name
  }
  activities {
    id
    name
  }
}
    `, {"fragmentName":"TimerProject"}) as unknown as TypedDocumentString<TimerProjectFragment, unknown>;
export const WeekShiftFragmentDoc = new TypedDocumentString(`
    fragment WeekShift on Shift {
  id
  start
  stop
  notes
  billable
  project {
    id
    name
  }
}
    `, {"fragmentName":"WeekShift"}) as unknown as TypedDocumentString<WeekShiftFragment, unknown>;
export const StaffFieldsFragmentDoc = new TypedDocumentString(`
    fragment StaffFields on Staff {
  id
  login
  firstName
  lastName
  type
  active
  timeZone
  rates {
    id
    kind
    cents
    effectiveFrom
  }
}
    `, {"fragmentName":"StaffFields"}) as unknown as TypedDocumentString<StaffFieldsFragment, unknown>;
export const AdminCompanyFragmentDoc = new TypedDocumentString(`
    fragment AdminCompany on Company {
  id
  name
  visibility
  mainCity
}
    `, {"fragmentName":"AdminCompany"}) as unknown as TypedDocumentString<AdminCompanyFragment, unknown>;
export const AdminProjectFragmentDoc = new TypedDocumentString(`
    fragment AdminProject on Project {
  id
  name
  active
  visibility
  timeLimit
  timeLimitString
  timeLeft
  hourlyRateCents
  company {
    id
    name
  }
  users {
    id
  }
  rates {
    id
    kind
    cents
    effectiveFrom
  }
}
    `, {"fragmentName":"AdminProject"}) as unknown as TypedDocumentString<AdminProjectFragment, unknown>;
export const ReportSumsFieldsFragmentDoc = new TypedDocumentString(`
    fragment ReportSumsFields on ReportSums {
  seconds
  billableSeconds
  amountCents
  costCents
  profitCents
}
    `, {"fragmentName":"ReportSumsFields"}) as unknown as TypedDocumentString<ReportSumsFieldsFragment, unknown>;
export const ReportRowFieldsFragmentDoc = new TypedDocumentString(`
    fragment ReportRowFields on ReportRow {
  bucketStart
  billable
  project {
    nodeId
    name
  }
  user {
    staffId
    login
    firstName
    lastName
  }
  seconds
  billableSeconds
  amountCents
  costCents
  profitCents
}
    `, {"fragmentName":"ReportRowFields"}) as unknown as TypedDocumentString<ReportRowFieldsFragment, unknown>;
export const PeriodRowFragmentDoc = new TypedDocumentString(`
    fragment PeriodRow on ReportRow {
  bucketStart
  project {
    nodeId
  }
  seconds
}
    `, {"fragmentName":"PeriodRow"}) as unknown as TypedDocumentString<PeriodRowFragment, unknown>;
export const ViewerDocument = new TypedDocumentString(`
    query Viewer {
  viewer {
    ...ViewerFields
  }
}
    fragment ViewerFields on Viewer {
  staff {
    id
    login
    firstName
    lastName
    type
    timeZone
  }
  account {
    currency
    staffSeeMoney
  }
}`) as unknown as TypedDocumentString<ViewerQuery, ViewerQueryVariables>;
export const TimerProjectsDocument = new TypedDocumentString(`
    query TimerProjects {
  projects(first: 200, filter: {active: {eq: true}}, order: [{field: NAME}]) {
    nodes {
      ...TimerProject
    }
  }
}
    fragment TimerProject on Project {
  id
  name
  timeLeft
  overdue
  nearlyOverdue
  running
  startedAt
  runningTotal
  company {
    id
    name
  }
  activities {
    id
    name
  }
}`) as unknown as TypedDocumentString<TimerProjectsQuery, TimerProjectsQueryVariables>;
export const PunchInDocument = new TypedDocumentString(`
    mutation PunchIn($input: PunchInInput!) {
  punchIn(input: $input) {
    project {
      ...TimerProject
    }
    stoppedShifts {
      id
      project {
        ...TimerProject
      }
    }
  }
}
    fragment TimerProject on Project {
  id
  name
  timeLeft
  overdue
  nearlyOverdue
  running
  startedAt
  runningTotal
  company {
    id
    name
  }
  activities {
    id
    name
  }
}`) as unknown as TypedDocumentString<PunchInMutation, PunchInMutationVariables>;
export const PunchOutDocument = new TypedDocumentString(`
    mutation PunchOut($input: PunchOutInput!) {
  punchOut(input: $input) {
    project {
      ...TimerProject
    }
  }
}
    fragment TimerProject on Project {
  id
  name
  timeLeft
  overdue
  nearlyOverdue
  running
  startedAt
  runningTotal
  company {
    id
    name
  }
  activities {
    id
    name
  }
}`) as unknown as TypedDocumentString<PunchOutMutation, PunchOutMutationVariables>;
export const ShiftEventsDocument = new TypedDocumentString(`
    subscription ShiftEvents {
  shiftEvents {
    project {
      ...TimerProject
    }
  }
}
    fragment TimerProject on Project {
  id
  name
  timeLeft
  overdue
  nearlyOverdue
  running
  startedAt
  runningTotal
  company {
    id
    name
  }
  activities {
    id
    name
  }
}`) as unknown as TypedDocumentString<ShiftEventsSubscription, ShiftEventsSubscriptionVariables>;
export const WeekShiftsDocument = new TypedDocumentString(`
    query WeekShifts($filter: ShiftFilter!, $after: String) {
  shifts(first: 500, after: $after, filter: $filter, order: [{field: START}]) {
    nodes {
      ...WeekShift
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment WeekShift on Shift {
  id
  start
  stop
  notes
  billable
  project {
    id
    name
  }
}`) as unknown as TypedDocumentString<WeekShiftsQuery, WeekShiftsQueryVariables>;
export const CreateShiftDocument = new TypedDocumentString(`
    mutation CreateShift($input: CreateShiftInput!) {
  createShift(input: $input) {
    shift {
      ...WeekShift
    }
  }
}
    fragment WeekShift on Shift {
  id
  start
  stop
  notes
  billable
  project {
    id
    name
  }
}`) as unknown as TypedDocumentString<CreateShiftMutation, CreateShiftMutationVariables>;
export const UpdateShiftDocument = new TypedDocumentString(`
    mutation UpdateShift($input: UpdateShiftInput!) {
  updateShift(input: $input) {
    shift {
      ...WeekShift
    }
  }
}
    fragment WeekShift on Shift {
  id
  start
  stop
  notes
  billable
  project {
    id
    name
  }
}`) as unknown as TypedDocumentString<UpdateShiftMutation, UpdateShiftMutationVariables>;
export const DeleteShiftDocument = new TypedDocumentString(`
    mutation DeleteShift($input: DeleteShiftInput!) {
  deleteShift(input: $input) {
    deletedShiftId
  }
}
    `) as unknown as TypedDocumentString<DeleteShiftMutation, DeleteShiftMutationVariables>;
export const StaffListDocument = new TypedDocumentString(`
    query StaffList {
  staff(first: 500, order: [{field: LAST_NAME}]) {
    nodes {
      ...StaffFields
    }
  }
}
    fragment StaffFields on Staff {
  id
  login
  firstName
  lastName
  type
  active
  timeZone
  rates {
    id
    kind
    cents
    effectiveFrom
  }
}`) as unknown as TypedDocumentString<StaffListQuery, StaffListQueryVariables>;
export const CreateStaffDocument = new TypedDocumentString(`
    mutation CreateStaff($input: CreateStaffInput!) {
  createStaff(input: $input) {
    staff {
      ...StaffFields
    }
  }
}
    fragment StaffFields on Staff {
  id
  login
  firstName
  lastName
  type
  active
  timeZone
  rates {
    id
    kind
    cents
    effectiveFrom
  }
}`) as unknown as TypedDocumentString<CreateStaffMutation, CreateStaffMutationVariables>;
export const EnableStaffDocument = new TypedDocumentString(`
    mutation EnableStaff($input: EnableStaffInput!) {
  enableStaff(input: $input) {
    staff {
      ...StaffFields
    }
  }
}
    fragment StaffFields on Staff {
  id
  login
  firstName
  lastName
  type
  active
  timeZone
  rates {
    id
    kind
    cents
    effectiveFrom
  }
}`) as unknown as TypedDocumentString<EnableStaffMutation, EnableStaffMutationVariables>;
export const DisableStaffDocument = new TypedDocumentString(`
    mutation DisableStaff($input: DisableStaffInput!) {
  disableStaff(input: $input) {
    staff {
      ...StaffFields
    }
  }
}
    fragment StaffFields on Staff {
  id
  login
  firstName
  lastName
  type
  active
  timeZone
  rates {
    id
    kind
    cents
    effectiveFrom
  }
}`) as unknown as TypedDocumentString<DisableStaffMutation, DisableStaffMutationVariables>;
export const AdminListsDocument = new TypedDocumentString(`
    query AdminLists {
  companies(first: 500, order: [{field: NAME}]) {
    nodes {
      ...AdminCompany
    }
  }
  projects(first: 500, order: [{field: NAME}]) {
    nodes {
      ...AdminProject
    }
  }
}
    fragment AdminCompany on Company {
  id
  name
  visibility
  mainCity
}
fragment AdminProject on Project {
  id
  name
  active
  visibility
  timeLimit
  timeLimitString
  timeLeft
  hourlyRateCents
  company {
    id
    name
  }
  users {
    id
  }
  rates {
    id
    kind
    cents
    effectiveFrom
  }
}`) as unknown as TypedDocumentString<AdminListsQuery, AdminListsQueryVariables>;
export const CreateCompanyDocument = new TypedDocumentString(`
    mutation CreateCompany($input: CreateCompanyInput!) {
  createCompany(input: $input) {
    company {
      ...AdminCompany
    }
  }
}
    fragment AdminCompany on Company {
  id
  name
  visibility
  mainCity
}`) as unknown as TypedDocumentString<CreateCompanyMutation, CreateCompanyMutationVariables>;
export const UpdateCompanyDocument = new TypedDocumentString(`
    mutation UpdateCompany($input: UpdateCompanyInput!) {
  updateCompany(input: $input) {
    company {
      ...AdminCompany
    }
  }
}
    fragment AdminCompany on Company {
  id
  name
  visibility
  mainCity
}`) as unknown as TypedDocumentString<UpdateCompanyMutation, UpdateCompanyMutationVariables>;
export const CreateProjectDocument = new TypedDocumentString(`
    mutation CreateProject($input: CreateProjectInput!) {
  createProject(input: $input) {
    project {
      ...AdminProject
    }
  }
}
    fragment AdminProject on Project {
  id
  name
  active
  visibility
  timeLimit
  timeLimitString
  timeLeft
  hourlyRateCents
  company {
    id
    name
  }
  users {
    id
  }
  rates {
    id
    kind
    cents
    effectiveFrom
  }
}`) as unknown as TypedDocumentString<CreateProjectMutation, CreateProjectMutationVariables>;
export const UpdateProjectDocument = new TypedDocumentString(`
    mutation UpdateProject($input: UpdateProjectInput!) {
  updateProject(input: $input) {
    project {
      ...AdminProject
    }
  }
}
    fragment AdminProject on Project {
  id
  name
  active
  visibility
  timeLimit
  timeLimitString
  timeLeft
  hourlyRateCents
  company {
    id
    name
  }
  users {
    id
  }
  rates {
    id
    kind
    cents
    effectiveFrom
  }
}`) as unknown as TypedDocumentString<UpdateProjectMutation, UpdateProjectMutationVariables>;
export const SetRateDocument = new TypedDocumentString(`
    mutation SetRate($input: SetRateInput!) {
  setRate(input: $input) {
    rate {
      id
    }
  }
}
    `) as unknown as TypedDocumentString<SetRateMutation, SetRateMutationVariables>;
export const DashboardDocument = new TypedDocumentString(`
    query Dashboard($byProject: ReportInput!, $byBillable: ReportInput!, $byPerson: ReportInput!) {
  byProject: report(input: $byProject, first: 1000) {
    currency
    totals {
      ...ReportSumsFields
    }
    rows {
      ...ReportRowFields
    }
  }
  byBillable: report(input: $byBillable, first: 1000) {
    rows {
      ...ReportRowFields
    }
  }
  byPerson: report(input: $byPerson, first: 1000) {
    rows {
      ...ReportRowFields
    }
  }
  projects(first: 500, order: [{field: NAME}]) {
    nodes {
      id
      name
      timeLimit
      timeLeft
    }
  }
}
    fragment ReportSumsFields on ReportSums {
  seconds
  billableSeconds
  amountCents
  costCents
  profitCents
}
fragment ReportRowFields on ReportRow {
  bucketStart
  billable
  project {
    nodeId
    name
  }
  user {
    staffId
    login
    firstName
    lastName
  }
  seconds
  billableSeconds
  amountCents
  costCents
  profitCents
}`) as unknown as TypedDocumentString<DashboardQuery, DashboardQueryVariables>;
export const DashboardPeriodsDocument = new TypedDocumentString(`
    query DashboardPeriods($drawn: ReportInput!, $followed: ReportInput!) {
  drawn: report(input: $drawn, first: 5000) {
    rows {
      ...PeriodRow
    }
  }
  followed: report(input: $followed, first: 1000) {
    rows {
      ...PeriodRow
    }
  }
}
    fragment PeriodRow on ReportRow {
  bucketStart
  project {
    nodeId
  }
  seconds
}`) as unknown as TypedDocumentString<DashboardPeriodsQuery, DashboardPeriodsQueryVariables>;