/**
 * The modules, bottom up: each imports only modules before it (src/modules/README.md gives the
 * order; test/unit/module-registration.test.ts checks it). The ORM (db/entities.ts), the migrator
 * (db/migrations/index.ts) and the schema assembly (graphql/schema.ts) read this list; each
 * module names what it adds once, in its index.ts (`<NAME>_MODULE`: entities and migrations) and
 * its graphql/index.ts (resolvers).
 */
import { ACCOUNTS_MODULE } from './accounts';
import { ACTIVITIES_MODULE } from './activities';
import { COMMON_MODULE } from './common';
import { COMPANIES_MODULE } from './companies';
import { DELIVERY_MODULE } from './delivery';
import { EVENTS_MODULE } from './events';
import { IDS_MODULE } from './ids';
import { NODES_MODULE } from './nodes';
import { OAUTH_MODULE } from './oauth';
import { OUTBOX_MODULE } from './outbox';
import { PAGING_MODULE } from './paging';
import { PROJECTS_MODULE } from './projects';
import { RATES_MODULE } from './rates';
import { REPORTS_MODULE } from './reports';
import { RULE_FORMS_MODULE } from './rule-forms';
import { SHIFTS_MODULE } from './shifts';
import { STAFF_MODULE } from './staff';
import { SYNC_MODULE } from './sync';
import { TIME_ZONES_MODULE } from './time-zones';
import { WEBHOOKS_MODULE } from './webhooks';
import { WRITES_MODULE } from './writes';
import type { ModuleDefinition } from '../core/module-definition';

export const MODULES = [
  IDS_MODULE,
  RULE_FORMS_MODULE,
  COMMON_MODULE,
  WRITES_MODULE,
  PAGING_MODULE,
  ACCOUNTS_MODULE,
  OUTBOX_MODULE,
  STAFF_MODULE,
  COMPANIES_MODULE,
  PROJECTS_MODULE,
  RATES_MODULE,
  ACTIVITIES_MODULE,
  SHIFTS_MODULE,
  EVENTS_MODULE,
  WEBHOOKS_MODULE,
  DELIVERY_MODULE,
  REPORTS_MODULE,
  SYNC_MODULE,
  OAUTH_MODULE,
  TIME_ZONES_MODULE,
  NODES_MODULE,
] as const satisfies readonly ModuleDefinition[];

/** A module's folder name: the schema assembly keys each module's resolvers by it. */
export type ModuleName = (typeof MODULES)[number]['name'];

export type { ModuleDefinition };
