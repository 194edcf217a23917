export { TimeZoneResolver } from './graphql/time-zone.resolver';
export { TimeZoneService } from './time-zone.service';
