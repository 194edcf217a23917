/**
 * One element of a legacy XML answer. The `type` attributes are those Rails' `to_xml` wrote, which
 * old clients parse: integers, booleans, floats and arrays are typed; `active` is plain text.
 */
export type XmlNode =
  | {
      readonly name: string;
      readonly kind: 'text';
      readonly value: string | null;
      readonly attributes?: Readonly<Record<string, string>>;
    }
  | { readonly name: string; readonly kind: 'integer' | 'float'; readonly value: number | null }
  | { readonly name: string; readonly kind: 'boolean'; readonly value: boolean | null }
  | { readonly name: string; readonly kind: 'array'; readonly items: readonly XmlNode[] }
  | { readonly name: string; readonly kind: 'element'; readonly children: readonly XmlNode[] };

export const text = (
  name: string,
  value: string | null,
  attributes?: Record<string, string>,
): XmlNode =>
  attributes ? { name, kind: 'text', value, attributes } : { name, kind: 'text', value };
export const integer = (name: string, value: number | null): XmlNode => ({
  name,
  kind: 'integer',
  value,
});
export const float = (name: string, value: number | null): XmlNode => ({
  name,
  kind: 'float',
  value,
});
export const boolean = (name: string, value: boolean | null): XmlNode => ({
  name,
  kind: 'boolean',
  value,
});
export const array = (name: string, items: readonly XmlNode[]): XmlNode => ({
  name,
  kind: 'array',
  items,
});
export const element = (name: string, children: readonly XmlNode[]): XmlNode => ({
  name,
  kind: 'element',
  children,
});

/** Characters XML 1.0 cannot carry at all, not even escaped. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
/** Anything a value needs changed: a character to escape or one XML cannot carry. */
const NEEDS_WORK = /[&<>"]|[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** Text as XML carries it: escaped, without what XML cannot carry. */
function xmlText(value: string): string {
  if (!NEEDS_WORK.test(value)) return value;
  return value
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** An attribute value between double quotes: text with `"` escaped too. */
function xmlAttribute(value: string): string {
  return xmlText(value).replace(/"/g, '&quot;');
}

/** The attributes of a typed value and of nil, written once per kind (they never vary). */
const TYPED = { integer: ' type="integer"', float: ' type="float"', boolean: ' type="boolean"' };
const TYPED_NIL = {
  integer: ' type="integer" nil="true"',
  float: ' type="float" nil="true"',
  boolean: ' type="boolean" nil="true"',
};

function attributesOf(node: XmlNode): string {
  if (node.kind === 'array') return ' type="array"';
  if (node.kind === 'element') return '';
  if (node.kind !== 'text') return node.value === null ? TYPED_NIL[node.kind] : TYPED[node.kind];
  if (node.value === null) return ' nil="true"';
  if (!node.attributes) return '';
  let written = '';
  for (const [name, value] of Object.entries(node.attributes))
    written += ` ${name}="${xmlAttribute(value)}"`;
  return written;
}

/** Appends `node` as lines indented by `indent`, two spaces per level (Rails' `to_xml` layout). */
function write(node: XmlNode, indent: string, lines: string[]): void {
  const open = `${indent}<${node.name}${attributesOf(node)}`;
  if (node.kind === 'element' || node.kind === 'array') {
    const children = node.kind === 'element' ? node.children : node.items;
    if (children.length === 0) {
      lines.push(`${open}/>`);
      return;
    }
    lines.push(`${open}>`);
    for (const child of children) write(child, `${indent}  `, lines);
    lines.push(`${indent}</${node.name}>`);
    return;
  }
  const content = node.value === null ? '' : xmlText(String(node.value));
  lines.push(content === '' ? `${open}/>` : `${open}>${content}</${node.name}>`);
}

/**
 * A whole document, pretty-printed as the legacy service wrote it. Written here rather than by an
 * XML library: the answers are one closed shape (elements, text, two attributes), and building a
 * document object for a list of 2,500 shifts cost several times the rest of the request
 * (docs/xml-api.md, "How answers are written"). `test/unit/xml-writer.test.ts` holds the output
 * to xmlbuilder2's byte for byte; request bodies are parsed by saxes (xml-body.ts).
 */
export function renderXml(root: XmlNode): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  write(root, '', lines);
  return lines.join('\n');
}

/**
 * A list (`<shifts type="array">`) written a page of items at a time: the same text as
 * `renderXml(array(name, every item))` for a list that is not empty.
 */
export async function* renderXmlList(
  name: string,
  pages: AsyncIterable<readonly XmlNode[]>,
): AsyncIterable<string> {
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<${name} type="array">`;
  for await (const items of pages) {
    const lines: string[] = [];
    for (const item of items) write(item, '  ', lines);
    if (lines.length > 0) yield `\n${lines.join('\n')}`;
  }
  yield `\n</${name}>`;
}
