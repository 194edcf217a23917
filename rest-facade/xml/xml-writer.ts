import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';

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

/**
 * Text as xmlbuilder2 must be given it: without characters XML cannot carry, and with `&`
 * escaped by us, because xmlbuilder2 leaves anything shaped like an entity (`&lt;`) as it is.
 */
export function xmlText(value: string): string {
  return value.replace(NOT_XML, '').replace(/&/g, '&amp;');
}

function append(parent: XMLBuilder, node: XmlNode): void {
  switch (node.kind) {
    case 'element': {
      const child = parent.ele(node.name);
      for (const grandchild of node.children) append(child, grandchild);
      return;
    }
    case 'array': {
      const child = parent.ele(node.name, { type: 'array' });
      for (const item of node.items) append(child, item);
      return;
    }
    default: {
      if (node.value === null) {
        parent.ele(
          node.name,
          node.kind === 'text' ? { nil: 'true' } : { type: node.kind, nil: 'true' },
        );
        return;
      }
      const child =
        node.kind === 'text'
          ? parent.ele(node.name, node.attributes ?? {})
          : parent.ele(node.name, { type: node.kind });
      child.txt(xmlText(String(node.value)));
    }
  }
}

/** A whole document; xmlbuilder2 only ever builds here, it never parses request bodies. */
export function renderXml(root: XmlNode): string {
  const document = create({ version: '1.0', encoding: 'UTF-8' });
  append(document, root);
  return document.end({ prettyPrint: true });
}
