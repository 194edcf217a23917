import { z } from 'zod';
import type { JsonRoute } from '../json/json-format';

export interface TimeZoneNode {
  name: string;
  longitude: number | null;
  latitude: number | null;
  offset: number;
  dst: boolean;
}

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
    render: (zones) => {
      const list = (zones as TimeZoneNode[]).map(renderTimeZone);
      return { response: list, count: list.length };
    },
  },
];
