import { Field, Float, Int, ObjectType } from 'type-graphql';
import type { ListedTimeZone } from '../listed-time-zone';

@ObjectType({
  description: 'A zone of the IANA tz database, as it stands at the instant of the request.',
})
export class TimeZone implements ListedTimeZone {
  @Field(() => String, {
    description:
      'The IANA name, e.g. Europe/Berlin; links (US/Eastern) and Etc zones are listed too.',
  })
  name!: string;

  @Field(() => Int, {
    description: 'The offset from UTC at the instant of the request, in seconds (east positive).',
  })
  offset!: number;

  @Field(() => Boolean, {
    description: 'Whether daylight saving time is in effect at the instant of the request.',
  })
  dst!: boolean;

  @Field(() => Float, {
    nullable: true,
    description:
      'Latitude of the reference location of the zone (zone.tab); null where there is none, as for UTC.',
  })
  latitude!: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      'Longitude of the reference location of the zone (zone.tab); null where there is none, as for UTC.',
  })
  longitude!: number | null;
}
