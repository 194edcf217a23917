import { Account } from '../modules/accounts/account.entity';
import { Activity } from '../modules/activities/activity.entity';
import { TenantEntity } from '../modules/accounts/tenant.entity';
import { CompanyMember } from '../modules/companies/company-member.entity';
import { Company } from '../modules/companies/company.entity';
import { OAuthClient } from '../modules/oauth/oauth-client.entity';
import { OutboxMessage } from '../modules/outbox/outbox-message.entity';
import { ProjectMember } from '../modules/projects/project-member.entity';
import { Project } from '../modules/projects/project.entity';
import { Shift } from '../modules/shifts/shift.entity';
import { Staff } from '../modules/staff/staff.entity';
import { Webhook } from '../modules/webhooks/webhook.entity';

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
