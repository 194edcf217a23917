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
/** An element holding a value of its kind. */
export const leaf = (
  name: string,
  kind: XmlLeafKind,
  value: string | number | boolean | null,
): XmlNode => ({ name, kind, value }) as XmlNode;
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

/** The kinds of an element that holds a value. */
export type XmlLeafKind = 'text' | 'integer' | 'float' | 'boolean';

/**
 * One element holding a value, as a line indented by `indent`: typed as its kind says, nil when
 * null, empty (`<name/>`) when its text is.
 */
export function leafText(
  indent: string,
  name: string,
  kind: XmlLeafKind,
  value: string | number | boolean | null,
  attributes?: Readonly<Record<string, string>>,
): string {
  let open = `${indent}<${name}`;
  if (kind !== 'text') open += value === null ? TYPED_NIL[kind] : TYPED[kind];
  else if (value === null) open += ' nil="true"';
  else if (attributes)
    for (const [attribute, text] of Object.entries(attributes))
      open += ` ${attribute}="${xmlAttribute(text)}"`;
  const content = value === null ? '' : xmlText(String(value));
  return content === '' ? `${open}/>` : `${open}>${content}</${name}>`;
}

/** Appends `node` as lines indented by `indent`, two spaces per level (Rails' `to_xml` layout). */
function write(node: XmlNode, indent: string, lines: string[]): void {
  if (node.kind === 'element' || node.kind === 'array') {
    const children = node.kind === 'element' ? node.children : node.items;
    const open = `${indent}<${node.name}${node.kind === 'array' ? ' type="array"' : ''}`;
    if (children.length === 0) {
      lines.push(`${open}/>`);
      return;
    }
    lines.push(`${open}>`);
    for (const child of children) write(child, `${indent}  `, lines);
    lines.push(`${indent}</${node.name}>`);
    return;
  }
  lines.push(
    leafText(
      indent,
      node.name,
      node.kind,
      node.value,
      node.kind === 'text' ? node.attributes : undefined,
    ),
  );
}

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/**
 * A whole document, pretty-printed as the legacy service wrote it. Written here rather than by an
 * XML library: the answers are one closed shape (elements, text, two attributes), and building a
 * document object for a list of 2,500 shifts cost several times the rest of the request
 * (docs/xml-api.md, "How answers are written"). `test/unit/xml-writer.test.ts` holds the output
 * to xmlbuilder2's byte for byte; request bodies are parsed by saxes (xml-body.ts).
 */
export function renderXml(root: XmlNode): string {
  const lines = [DECLARATION];
  write(root, '', lines);
  return lines.join('\n');
}

/** A list's items as the lines a list document holds them in. */
export function itemsText(items: readonly XmlNode[]): string {
  const lines: string[] = [];
  for (const item of items) write(item, '  ', lines);
  return lines.join('\n');
}

/**
 * A list document (`<shifts type="array">`) of its items' text (`itemsText`, or the same written
 * by a NodeWriter): the text of `renderXml(array(name, items))`.
 */
export function listDocument(name: string, items: string): string {
  return items
    ? `${DECLARATION}\n<${name} type="array">\n${items}\n</${name}>`
    : `${DECLARATION}\n<${name} type="array"/>`;
}

/**
 * A list written a page of items at a time, each page its items' text: the same text as
 * `listDocument(name, every item)` for a list that is not empty.
 */
export async function* renderXmlList(
  name: string,
  pages: AsyncIterable<string>,
): AsyncIterable<string> {
  yield `${DECLARATION}\n<${name} type="array">`;
  for await (const items of pages) if (items) yield `\n${items}`;
  yield `\n</${name}>`;
}
