import { z } from 'zod';
import type { JsonRoute } from '../json/json-format';
import type { ListTimeZonesQuery } from '../operations/generated';

/** A time zone as ListTimeZones answers it. */
export type TimeZoneNode = ListTimeZonesQuery['timeZones'][number];

export const timeZoneWire = z
  .object({
    zone: z.string(),
    longitude: z.number().nullable(),
    latitude: z.number().nullable(),
    offset: z.number().int().meta({ description: 'Seconds east of UTC at the request' }),
    dst: z.boolean(),
  })
  .strict()
  .meta({ id: 'TimeZone' });

export const renderTimeZone = (zone: TimeZoneNode): z.infer<typeof timeZoneWire> => ({
  zone: zone.name,
  longitude: zone.longitude,
  latitude: zone.latitude,
  offset: zone.offset,
  dst: zone.dst,
});

export const timeZoneJsonRoutes: JsonRoute[] = [
  {
    method: 'GET',
    path: '/time_zones',
    operation: 'ListTimeZones',
    entity: 'User',
    docs: {
      summary: 'List every time zone with its offset and DST now',
      response: { schema: timeZoneWire, list: true },
    },
    variables: () => ({}),
    render: (zones: readonly TimeZoneNode[]) => {
      const list = zones.map(renderTimeZone);
      return { response: list, count: list.length };
    },
  },
];
