/**
 * A zone as the list answers it, at the instant of the request: a plain type the service builds
 * and the GraphQL object type (graphql/time-zone.type.ts) implements.
 */
export interface ListedTimeZone {
  /** The IANA name, e.g. Europe/Berlin. */
  name: string;
  /** The offset from UTC in seconds, east positive. */
  offset: number;
  dst: boolean;
  /** The reference location of the zone (zone.tab); null where there is none, as for UTC. */
  latitude: number | null;
  longitude: number | null;
}
