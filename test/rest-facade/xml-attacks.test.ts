/**
 * Hostile and awkward XML bodies against the legacy XML facade, through HTTP only.
 *
 * docs/xml-api.md ("Safety limits"): no DTD, so no external entities and no entity expansion. Every
 * attack must be refused with a 4xx (never a 5xx, never a hang), store nothing, and leave the
 * server answering the next ordinary request correctly. The time bound below is a hang detector
 * with a generous margin, not a benchmark.
 *
 * The second half checks that awkward text (`&`, `<`, `]]>`, a literal `&lt;`, control characters)
 * round-trips safely: stored as sent, rendered escaped, characters XML cannot carry removed, and
 * the answer always well-formed (parsed here with saxes, a strict parser).
 */
import request from 'supertest';
import { parseXml, type XmlElement } from '../support/legacy-answers';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

let t: TestApp;
let owner: Credentials & { ownerLegacyId: number };
let companyId: number;

/** Projects that exist before any attack; an attack must not add to them. */
const BASELINE_PROJECTS = ['Baseline Alpha', 'Baseline Beta'];

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount({ timeZone: 'Europe/Berlin' });
  const company = await xmlPost(
    '/companies.xml',
    '<company><name>Attack Surface Ltd</name></company>',
  );
  expect(company.status).toBe(201);
  companyId = Number(/^\/company\/(\d+)\.xml$/.exec(company.headers.location ?? '')?.[1]);
  expect(companyId).toBeGreaterThan(0);
  for (const name of BASELINE_PROJECTS) {
    expect(
      (
        await xmlPost(
          `/company/${companyId}/projects.xml`,
          `<project><name>${name}</name></project>`,
        )
      ).status,
    ).toBe(201);
  }
});
afterAll(() => t?.close());

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

function child(element: XmlElement, name: string): XmlElement {
  const found = element.children.filter((c) => c.name === name);
  if (found.length !== 1)
    throw new Error(`<${element.name}> has ${found.length} <${name}> elements, expected 1`);
  return found[0]!;
}

function xmlPost(path: string, body: string | Buffer): request.Test {
  return request(t.app.express)
    .post(path)
    .auth(owner.login, owner.password)
    .type('application/xml')
    .send(body);
}

function xmlGet(path: string): request.Test {
  return request(t.app.express).get(path).auth(owner.login, owner.password);
}

/**
 * "In time" is each test's own timeout: an attack that works (entity expansion, quadratic parsing,
 * a body read to the end) takes minutes, while a busy 2-core CI machine may take seconds for an
 * honest refusal, so no wall-clock figure is asserted here; speed is measured in bench/.
 */
const IN_TIME_MS = 30_000;

function attack(body: string | Buffer): Promise<request.Response> {
  return xmlPost(`/company/${companyId}/projects.xml`, body);
}

/** A refusal: 4xx with a well-formed `<errors>` body. */
function expectRefused(res: request.Response, status?: number): XmlElement {
  if (status !== undefined) expect(res.status).toBe(status);
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.headers['content-type']).toMatch(/^application\/xml\b/);
  const doc = parseXml(res.text);
  expect(doc.name).toBe('errors');
  expect(doc.children.length).toBeGreaterThan(0);
  for (const error of doc.children) {
    expect(error.name).toBe('error');
    expect(error.attributes.type).toMatch(/^\w+::\w+$/);
  }
  return doc;
}

/** The server still answers an ordinary request correctly, and the attack stored nothing. */
async function expectServerHealthy(): Promise<void> {
  const res = await xmlGet('/projects.xml');
  expect(res.status).toBe(200);
  const doc = parseXml(res.text);
  expect(doc.name).toBe('projects');
  expect(doc.attributes).toEqual({ type: 'array' });
  expect(doc.children.map((p) => child(p, 'name').text)).toEqual(BASELINE_PROJECTS);
}

// ---------------------------------------------------------------------------------------------
// Attacks
// ---------------------------------------------------------------------------------------------

const BILLION_LAUGHS =
  '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n  <!ENTITY lol "lol">\n' +
  Array.from(
    { length: 9 },
    (_, i) => `  <!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">\n`,
  ).join('') +
  ']>\n<project><name>&lol9;</name></project>';

const TEN_MB = 10 * 1024 * 1024;

function invalidUtf8(bytes: number[]): Buffer {
  return Buffer.concat([
    Buffer.from('<project><name>bad '),
    Buffer.from(bytes),
    Buffer.from('</name></project>'),
  ]);
}

const ATTACKS: readonly (readonly [string, () => string | Buffer, number | undefined])[] = [
  ['billion laughs (DOCTYPE with nested entities)', () => BILLION_LAUGHS, undefined],
  [
    'quadratic blow-up (one big entity used many times)',
    () =>
      `<!DOCTYPE p [<!ENTITY a "${'a'.repeat(50_000)}">]><project><name>${'&a;'.repeat(10_000)}</name></project>`,
    undefined,
  ],
  [
    'external entity (file:///etc/passwd)',
    () =>
      '<?xml version="1.0"?><!DOCTYPE project [<!ENTITY x SYSTEM "file:///etc/passwd">]><project><name>&x;</name></project>',
    undefined,
  ],
  [
    'external parameter entity (network)',
    () =>
      '<!DOCTYPE project [<!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd"> %remote;]><project><name>x</name></project>',
    undefined,
  ],
  [
    'external DTD',
    () => '<!DOCTYPE project SYSTEM "file:///etc/passwd"><project><name>x</name></project>',
    undefined,
  ],
  [
    'a 10 MB body (over the default 1 MB limit)',
    () =>
      Buffer.concat([
        Buffer.from('<project><name>'),
        Buffer.alloc(TEN_MB, 'a'),
        Buffer.from('</name></project>'),
      ]),
    413,
  ],
  [
    '10,000-deep nesting',
    () => `<project>${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}</project>`,
    undefined,
  ],
  [
    '20,000 sibling elements',
    () => `<project><name>x</name>${'<n/>'.repeat(20_000)}</project>`,
    undefined,
  ],
  ['invalid UTF-8: 0xFF 0xFE', () => invalidUtf8([0xff, 0xfe]), undefined],
  ['invalid UTF-8: overlong "/" (0xC0 0xAF)', () => invalidUtf8([0xc0, 0xaf]), undefined],
  ['invalid UTF-8: a lone continuation byte', () => invalidUtf8([0x80]), undefined],
  [
    'invalid UTF-8: an encoded surrogate (CESU-8)',
    () => invalidUtf8([0xed, 0xa0, 0x80]),
    undefined,
  ],
  [
    'invalid UTF-8: truncated sequence at the end',
    () =>
      Buffer.concat([Buffer.from('<project><name>x</name></project>'), Buffer.from([0xe2, 0x82])]),
    undefined,
  ],
  [
    'a raw NUL byte in text',
    () => Buffer.from('<project><name>nul\u0000byte</name></project>', 'utf8'),
    undefined,
  ],
  ['a NUL character reference', () => '<project><name>nul&#0;ref</name></project>', undefined],
  [
    'a NUL byte in an element name',
    () => Buffer.from('<project><na\u0000me>x</na\u0000me></project>', 'utf8'),
    undefined,
  ],
  ['an unknown entity &foo;', () => '<project><name>x &foo; y</name></project>', undefined],
  [
    'a character reference to a surrogate',
    () => '<project><name>x &#xD800; y</name></project>',
    undefined,
  ],
  [
    'two root elements',
    () => '<project><name>one</name></project><project><name>two</name></project>',
    undefined,
  ],
  ['text after the root element', () => '<project><name>one</name></project>trailing', undefined],
  ['an unclosed element', () => '<project><name>open', undefined],
  ['mismatched tags', () => '<project><name>x</nome></project>', undefined],
  [
    'a huge attribute count (50,000)',
    () =>
      `<project ${Array.from({ length: 50_000 }, (_, i) => `a${i}="1"`).join(' ')}><name>x</name></project>`,
    undefined,
  ],
  ['a duplicated attribute', () => '<project a="1" a="2"><name>x</name></project>', undefined],
  ['a root that is only text', () => '<project>just text</project>', undefined],
  ['not XML at all', () => '{"project":{"name":"json in disguise"}}', undefined],
];

describe.each(ATTACKS)('%s', (_label, body, status) => {
  test(
    'is refused with a 4xx in time, and the server stays healthy',
    async () => {
      const res = await attack(body());
      expectRefused(res, status);
      // No entity was expanded, nothing of the file system leaked.
      expect(res.text).not.toContain('lollol');
      expect(res.text).not.toContain('root:');
      await expectServerHealthy();
    },
    IN_TIME_MS,
  );
});

test(
  'an unauthenticated 10 MB body is refused in time',
  async () => {
    // Without credentials the request is refused (401) or the body is (413): a 4xx either way, in time.
    const res = await request(t.app.express)
      .post(`/company/${companyId}/projects.xml`)
      .type('application/xml')
      .send(
        Buffer.concat([
          Buffer.from('<project><name>'),
          Buffer.alloc(TEN_MB, 'a'),
          Buffer.from('</name></project>'),
        ]),
      );
    expect([401, 413]).toContain(res.status);
    expectRefused(res);
    await expectServerHealthy();
  },
  IN_TIME_MS,
);

test(
  'a body just under the limit is parsed, not refused for its size',
  async () => {
    // ~900 KB of an ignored element, then a name that makes the create fail validation cheaply.
    const padding = 'p'.repeat(900 * 1024);
    const res = await attack(
      `<project><padding>${padding}</padding><notes>no name</notes></project>`,
    );
    expect(res.status).toBe(422);
    expectRefused(res);
    await expectServerHealthy();
  },
  IN_TIME_MS,
);

// ---------------------------------------------------------------------------------------------
// Awkward text round-trips safely
// ---------------------------------------------------------------------------------------------

async function storedProject(legacyId: number): Promise<{ name: string; notes: string | null }> {
  const data = await t.gqlOk(owner, 'query($id: Int) { project(legacyId: $id) { name notes } }', {
    id: legacyId,
  });
  return data.project;
}

function createdId(res: request.Response, resource: string): number {
  expect(res.status).toBe(201);
  const match = new RegExp(`^/${resource}/(\\d+)\\.xml$`).exec(res.headers.location ?? '');
  expect(match).not.toBeNull();
  return Number(match![1]);
}

describe('awkward text', () => {
  const created: number[] = [];
  afterEach(async () => {
    // Back to the baseline, which the health check of every refusal compares with.
    for (const id of created.splice(0)) {
      expect(
        (
          await request(t.app.express)
            .delete(`/project/${id}.xml`)
            .auth(owner.login, owner.password)
        ).status,
      ).toBe(200);
    }
  });

  test('&, <, ]]> and a literal &lt; are stored as sent and rendered escaped', async () => {
    const name = 'Tom & Jerry <b>bold</b> ]]> &lt; done';
    const notes = 'if a < b && c > d then ]]> end';
    const res = await xmlPost(
      `/company/${companyId}/projects.xml`,
      // Escaped text, and CDATA sections (one cannot hold "]]>", so it is split over two).
      '<project><name>Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt; ]]&gt; &amp;lt; done</name>' +
        '<notes><![CDATA[if a < b && c > d then ]]]]><![CDATA[> end]]></notes></project>',
    );
    const id = createdId(res, 'project');
    created.push(id);
    expect(await storedProject(id)).toEqual({ name, notes });

    for (const answer of [res, await xmlGet(`/project/${id}.xml`)]) {
      const doc = parseXml(answer.text);
      expect(child(doc, 'name').text).toBe(name);
      expect(child(doc, 'notes').text).toBe(notes);
      // Escaped, not passed through: no markup of the stored text, and the literal &lt; stays text.
      expect(answer.text).not.toContain('<b>');
      expect(answer.text).not.toContain('bold</b>');
      expect(answer.text).toContain('&amp;lt;');
      expect(answer.text).not.toContain(']]>');
    }
    const list = parseXml((await xmlGet('/projects.xml')).text);
    expect(list.children.map((p) => child(p, 'name').text)).toContain(name);
  });

  /** Characters XML 1.0 cannot carry, not even escaped. */
  const FORBIDDEN = ['\u0001', '\u0008', '\uFFFE', '\uFFFF'];

  test('characters XML cannot carry (U+0001, U+FFFE, U+FFFF, U+0008) are removed on output; the answer stays well-formed', async () => {
    // An XML 1.0 body cannot carry them, so they are stored through GraphQL.
    const name = 'ctl\u0001a\uFFFEb\uFFFFc\u0008d\te';
    const id = (
      await t.gqlOk(
        owner,
        'mutation($input: CreateProjectInput!) { createProject(input: $input) { project { legacyId } } }',
        { input: { name, companyLegacyId: companyId } },
      )
    ).createProject.project as { legacyId: number };
    created.push(id.legacyId);
    expect((await storedProject(id.legacyId)).name).toBe(name);

    for (const path of [`/project/${id.legacyId}.xml`, '/projects.xml']) {
      const res = await xmlGet(path);
      expect(res.status).toBe(200);
      // saxes refuses a document with any of them: parsing is the well-formedness check.
      const doc = parseXml(res.text);
      const project =
        doc.name === 'project'
          ? doc
          : doc.children.find((p) => child(p, 'id').text === String(id.legacyId))!;
      expect(child(project, 'name').text).toBe('ctlabcd\te');
      expect([...res.text].filter((ch) => FORBIDDEN.includes(ch))).toEqual([]);
      expect(res.text).not.toMatch(/&#(x0*1|0*1|x0*8|0*8|xFFFE|xFFFF);/i);
    }
  });

  test.each([
    ['a raw U+0001', '<project><name>a\u0001b</name></project>'],
    ['&#1;', '<project><name>a&#1;b</name></project>'],
    ['a raw U+FFFE', '<project><name>a\uFFFEb</name></project>'],
    ['&#xFFFE;', '<project><name>a&#xFFFE;b</name></project>'],
    ['&#xFFFF;', '<project><name>a&#xFFFF;b</name></project>'],
  ])('an XML 1.0 body with %s is refused with a 4xx and stores nothing', async (_label, body) => {
    const res = await attack(body);
    expectRefused(res);
    await expectServerHealthy();
  });

  test('a body declaring XML 1.1 with &#1; is refused, or stored and rendered without the character', async () => {
    const res = await attack('<?xml version="1.1"?><project><name>one&#1;one</name></project>');
    expect(res.status).toBeLessThan(500);
    if (res.status === 201) {
      const id = createdId(res, 'project');
      created.push(id);
      for (const answer of [res, await xmlGet(`/project/${id}.xml`)]) {
        expect(child(parseXml(answer.text), 'name').text).toBe('oneone');
      }
    } else {
      expectRefused(res);
    }
  });

  test('a character outside the BMP survives a read-chunk boundary of the parser (64 Ki UTF-16 units)', async () => {
    const head = '<project><padding>';
    const tail = '</padding><name>astral ';
    const prefix = head + 'x'.repeat(64 * 1024 - 1 - head.length - tail.length) + tail;
    const body = `${prefix}\u{1F600} end</name></project>`;
    // The high surrogate is the last unit of the first 64 Ki chunk, the low one the first of the next.
    expect(body.charCodeAt(64 * 1024 - 1)).toBe(0xd83d);
    const id = createdId(await xmlPost(`/company/${companyId}/projects.xml`, body), 'project');
    created.push(id);
    expect((await storedProject(id)).name).toBe('astral \u{1F600} end');
    expect(child(parseXml((await xmlGet(`/project/${id}.xml`)).text), 'name').text).toBe(
      'astral \u{1F600} end',
    );
  });

  test('non-ASCII text round-trips as UTF-8', async () => {
    const name = 'Café Müller – 東京 – Ωmega';
    const id = createdId(
      await xmlPost(
        `/company/${companyId}/projects.xml`,
        Buffer.from(
          `<?xml version="1.0" encoding="UTF-8"?><project><name>${name}</name></project>`,
          'utf8',
        ),
      ),
      'project',
    );
    created.push(id);
    expect((await storedProject(id)).name).toBe(name);
    const res = await xmlGet(`/project/${id}.xml`);
    expect(res.headers['content-type']).toMatch(/charset=utf-8/i);
    expect(child(parseXml(res.text), 'name').text).toBe(name);
  });
});
