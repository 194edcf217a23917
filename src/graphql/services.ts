import type { PasswordHasher } from '../auth/passwords';
import { ActivityService } from '../modules/activities/activity.service';
import { CompanyService } from '../modules/companies/company.service';
import type { Geocoder } from '../modules/companies/geocoder';
import { OAuthClientService } from '../modules/oauth/oauth-client.service';
import { ProjectService } from '../modules/projects/project.service';
import { PunchService } from '../modules/projects/punch.service';
import { ShiftService } from '../modules/shifts/shift.service';
import { StaffService } from '../modules/staff/staff.service';

/** The services behind the resolvers: stateless, built once per process. */
export interface Services {
  staff: StaffService;
  companies: CompanyService;
  projects: ProjectService;
  punches: PunchService;
  activities: ActivityService;
  shifts: ShiftService;
  oauthClients: OAuthClientService;
}

export function createServices(hasher: PasswordHasher, geocoder: Geocoder): Services {
  const projects = new ProjectService();
  return {
    staff: new StaffService(hasher),
    companies: new CompanyService(geocoder),
    projects,
    punches: new PunchService(projects),
    activities: new ActivityService(projects),
    shifts: new ShiftService(projects),
    oauthClients: new OAuthClientService(),
  };
}
