import type { PasswordHasher } from '../modules/staff/passwords';
import { ActivityService } from '../modules/activities/activity.service';
import { CompanyService } from '../modules/companies/company.service';
import type { Geocoder } from '../modules/companies/geocoder';
import { OAuthClientService } from '../modules/oauth/oauth-client.service';
import { ShiftEvents, type ShiftEventSink } from '../modules/events/shift-events';
import { ProjectService } from '../modules/projects/project.service';
import { PunchService } from '../modules/projects/punch.service';
import { ReportService } from '../modules/reports/report.service';
import { ShiftService } from '../modules/shifts/shift.service';
import { StaffService } from '../modules/staff/staff.service';
import { WebhookService } from '../modules/webhooks/webhook.service';

/** The services behind the resolvers: stateless, built once per process. */
export interface Services {
  staff: StaffService;
  companies: CompanyService;
  projects: ProjectService;
  punches: PunchService;
  activities: ActivityService;
  shifts: ShiftService;
  oauthClients: OAuthClientService;
  reports: ReportService;
  webhooks: WebhookService;
}

export function createServices(
  hasher: PasswordHasher,
  geocoder: Geocoder,
  shiftEventSinks: readonly ShiftEventSink[] = [],
): Services {
  const projects = new ProjectService();
  const events = new ShiftEvents(shiftEventSinks);
  const oauthClients = new OAuthClientService();
  return {
    // A password change revokes the user's OAuth tokens.
    staff: new StaffService(hasher, oauthClients),
    companies: new CompanyService(geocoder),
    projects,
    punches: new PunchService(projects, events),
    activities: new ActivityService(projects),
    shifts: new ShiftService(projects, events),
    oauthClients,
    reports: new ReportService(),
    webhooks: new WebhookService(),
  };
}
