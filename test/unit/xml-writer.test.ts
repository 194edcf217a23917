import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import {
  array,
  boolean,
  element,
  float,
  integer,
  renderXml,
  renderXmlList,
  itemsText,
  listDocument,
  text,
  type XmlNode,
} from '../../rest-facade/xml/xml-writer';

/**
 * The XML answers are written by rest-facade/xml/xml-writer.ts. They must stay byte for byte what
 * xmlbuilder2 makes of the same tree, pretty-printed: that is how they were written before, and
 * what the old clients parse. xmlbuilder2 builds the reference here.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function reference(root: XmlNode): string {
  const append = (parent: XMLBuilder, node: XmlNode): void => {
    if (node.kind === 'element' || node.kind === 'array') {
      const child = parent.ele(node.name, node.kind === 'array' ? { type: 'array' } : {});
      for (const grandchild of node.kind === 'element' ? node.children : node.items)
        append(child, grandchild);
    } else if (node.value === null) {
      parent.ele(
        node.name,
        node.kind === 'text' ? { nil: 'true' } : { type: node.kind, nil: 'true' },
      );
    } else {
      // xmlbuilder2 leaves what looks like an entity (`&lt;`) alone: `&` is escaped first.
      parent
        .ele(node.name, node.kind === 'text' ? (node.attributes ?? {}) : { type: node.kind })
        .txt(String(node.value).replace(NOT_XML, '').replace(/&/g, '&amp;'));
    }
  };
  const document = create({ version: '1.0', encoding: 'UTF-8' });
  append(document, root);
  return document.end({ prettyPrint: true });
}

const VALUES = [
  '',
  'plain',
  'x & y',
  '&amp; already escaped',
  '<b>bold</b>',
  'a > b',
  '"double" \'single\'',
  '\u0001control\u001f',
  'tab\tnewline\ncarriage\r',
  'emoji 😀 and ü',
  'lone \uD800 surrogate',
  '  spaced  ',
  ']]> end of CDATA',
];

test.each(VALUES)('a text of %j is written as xmlbuilder2 writes it', (value) => {
  const root = array('shifts', [
    element('shift', [
      integer('id', 7),
      text('notes', value),
      // Attribute values are fixed names in the answers (error types); without `&` and characters
      // XML cannot carry, which xmlbuilder2 would not escape in an attribute.
      text('error', value, { type: value.replace(/&/g, '+').replace(NOT_XML, '') }),
      boolean('billable', false),
      float('rate', 12.5),
      integer('activity-id', null),
      text('external-href', null),
      boolean('nothing', null),
      array('tags', []),
      array('more-tags', [text('tag', value)]),
      element('empty', []),
    ]),
  ]);
  expect(renderXml(root)).toBe(reference(root));
});

test('empty lists and single elements', () => {
  for (const root of [
    array('projects', []),
    element('errors', [text('error', 'Name is blank', { type: 'Project::Invalid' })]),
    element('user', [text('login', 'sam'), integer('id', 3)]),
  ]) {
    expect(renderXml(root)).toBe(reference(root));
  }
});

test('a list written a page at a time is the document written at once', async () => {
  const shift = (id: number) =>
    element('shift', [integer('id', id), text('notes', `<${id}> & co`)]);
  const pages = [[shift(1), shift(2)], [], [shift(3)]];
  let written = '';
  for await (const chunk of renderXmlList(
    'shifts',
    (async function* () {
      for (const page of pages) yield itemsText(page);
    })(),
  ))
    written += chunk;
  expect(written).toBe(reference(array('shifts', pages.flat())));
});

test("a list document of its items' text is the document written whole, empty or not", () => {
  const shifts = [1, 2].map((id) => element('shift', [integer('id', id), text('notes', null)]));
  for (const items of [shifts, []])
    expect(listDocument('shifts', itemsText(items))).toBe(reference(array('shifts', items)));
});
