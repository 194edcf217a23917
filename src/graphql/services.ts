import { type PasswordHasher, StaffService } from '../modules/staff';
import { ActivityService } from '../modules/activities';
import { CompanyService, type Geocoder } from '../modules/companies';
import { OAuthClientService } from '../modules/oauth';
import {
  ShiftCascadeRecorder,
  ShiftEvents,
  type ShiftEventSink,
  PunchService,
  ShiftService,
} from '../modules/shifts';
import { ProjectService } from '../modules/projects';
import { RateService } from '../modules/rates';
import { type ReportOptions, ReportService } from '../modules/reports';
import { SyncService } from '../modules/sync';
import { WebhookService } from '../modules/webhooks';

/** The services behind the resolvers: stateless, built once per process. */
export interface Services {
  staff: StaffService;
  companies: CompanyService;
  projects: ProjectService;
  punches: PunchService;
  activities: ActivityService;
  shifts: ShiftService;
  oauthClients: OAuthClientService;
  rates: RateService;
  reports: ReportService;
  sync: SyncService;
  webhooks: WebhookService;
}

export function createServices(
  hasher: PasswordHasher,
  geocoder: Geocoder,
  shiftEventSinks: readonly ShiftEventSink[] = [],
  reportOptions?: ReportOptions,
): Services {
  const events = new ShiftEvents(shiftEventSinks);
  // The services below shifts report the shifts their deletions reach through it.
  const cascades = new ShiftCascadeRecorder(events);
  const projects = new ProjectService(cascades);
  const oauthClients = new OAuthClientService();
  // A password change revokes the user's OAuth tokens.
  const staff = new StaffService(hasher, oauthClients, cascades);
  return {
    staff,
    companies: new CompanyService(geocoder, cascades),
    projects,
    punches: new PunchService(projects, events),
    activities: new ActivityService(projects, cascades),
    shifts: new ShiftService(projects, events),
    oauthClients,
    rates: new RateService(projects, staff),
    reports: new ReportService(reportOptions),
    sync: new SyncService(),
    webhooks: new WebhookService(),
  };
}
