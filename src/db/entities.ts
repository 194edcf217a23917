import { Account, TenantEntity } from '../modules/accounts';
import { Activity } from '../modules/activities';
import { CompanyMember, Company } from '../modules/companies';
import { OAuthClient } from '../modules/oauth';
import { OutboxMessage } from '../modules/outbox';
import { ProjectMember, Project } from '../modules/projects';
import { Shift } from '../modules/shifts';
import { Staff } from '../modules/staff';
import { Webhook } from '../modules/webhooks';

export const ENTITIES = [
  TenantEntity,
  Account,
  Staff,
  Company,
  CompanyMember,
  Project,
  ProjectMember,
  Activity,
  Shift,
  OutboxMessage,
  OAuthClient,
  Webhook,
];

/** The entities whose rows belong to one account: the `tenant` filter covers them. */
export const TENANT_ENTITY_NAMES = ENTITIES.filter((e) => e !== TenantEntity && e !== Account).map(
  (e) => e.name,
);
