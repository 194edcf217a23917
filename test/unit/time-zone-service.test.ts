import { TimeZoneService } from '../../src/modules/time-zones/time-zone.service';

const service = new TimeZoneService();
const zoneAt = (iso: string, name: string) =>
  service.list({ now: new Date(iso) }, name).find((zone) => zone.name === name);

test('Europe/Berlin is on standard time in January and on summer time in July', () => {
  expect(zoneAt('2026-01-15T12:00:00Z', 'Europe/Berlin')).toEqual({
    name: 'Europe/Berlin',
    offset: 3600,
    dst: false,
    latitude: 52.5,
    longitude: expect.closeTo(13.37, 1),
  });
  expect(zoneAt('2026-07-15T12:00:00Z', 'Europe/Berlin')).toMatchObject({
    offset: 7200,
    dst: true,
  });
});

test('the answer follows the instant across a transition, for links too', () => {
  // Berlin's 2026 spring change is at 01:00 UTC on 29 March.
  expect(zoneAt('2026-03-29T00:59:59Z', 'Europe/Berlin')).toMatchObject({
    offset: 3600,
    dst: false,
  });
  expect(zoneAt('2026-03-29T01:00:00Z', 'Europe/Berlin')).toMatchObject({
    offset: 7200,
    dst: true,
  });
  expect(zoneAt('2026-07-15T12:00:00Z', 'US/Eastern')).toMatchObject({ offset: -14400, dst: true });
  expect(zoneAt('2026-01-15T12:00:00Z', 'US/Eastern')).toMatchObject({
    offset: -18000,
    dst: false,
  });
  expect(zoneAt('2026-07-15T12:00:00Z', 'Asia/Tokyo')).toMatchObject({ offset: 32400, dst: false });
});

test('the filter ignores case; no filter lists everything', () => {
  const all = service.list({ now: new Date('2026-01-15T12:00:00Z') });
  expect(all.length).toBeGreaterThan(300);
  expect(
    service.list({ now: new Date('2026-01-15T12:00:00Z') }, 'BERLIN').map((zone) => zone.name),
  ).toEqual(['Europe/Berlin']);
  expect(service.list({ now: new Date('2026-01-15T12:00:00Z') }, '')).toHaveLength(all.length);
});
