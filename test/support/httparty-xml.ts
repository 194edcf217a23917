import { SaxesParser } from 'saxes';

/**
 * How the 2009 desktop client reads an XML answer: the XML-to-hash conversion of the HTTParty it
 * bundles (`httparty/parsers/xml.rb`, Merb's REXMLUtilityNode), ported rule for rule so a test sees
 * the same values the client's Ruby code sees:
 * - an element with text is `{name => text}`, typecast by a known `type` attribute (integer,
 *   boolean, ...); other elements are hashes of their children, repeated children become arrays;
 * - `type="array"` makes a list of the children's values; an empty element without a known type is
 *   nil, as is `nil="true"`; whitespace-only text is ignored; dashes in names become underscores.
 */

export type RubyValue =
  string | number | boolean | null | RubyValue[] | { [key: string]: RubyValue };

const TYPECASTS: Record<string, (text: string) => RubyValue> = {
  integer: (v) => Number.parseInt(v, 10) || 0,
  boolean: (v) => v.trim() !== 'false',
  float: (v) => Number.parseFloat(v) || 0,
  double: (v) => Number.parseFloat(v) || 0,
  decimal: (v) => Number.parseFloat(v) || 0,
  string: (v) => v,
  // Times stay text here: the client never reads a typed time.
  datetime: (v) => v,
  date: (v) => v,
};

class UtilityNode {
  readonly name: string;
  readonly type: string | undefined;
  readonly attributes: Record<string, string>;
  readonly children: (UtilityNode | string)[] = [];
  private text = false;

  constructor(name: string, attributes: Record<string, string>) {
    this.name = name.replace(/-/g, '_');
    const rest = { ...attributes };
    this.type = rest.type;
    if (rest.type !== undefined && rest.type in TYPECASTS) delete rest.type;
    delete rest.nil;
    this.attributes = Object.fromEntries(
      Object.entries(rest).map(([k, v]) => [k.replace(/-/g, '_'), v]),
    );
  }

  add(node: UtilityNode | string): void {
    if (typeof node === 'string') this.text = true;
    this.children.push(node);
  }

  toHash(): Record<string, RubyValue> {
    if (this.text) return { [this.name]: this.typecast(this.children.map(String).join('')) };
    const groups = new Map<string, UtilityNode[]>();
    for (const child of this.children as UtilityNode[])
      groups.set(child.name, [...(groups.get(child.name) ?? []), child]);
    let out: RubyValue;
    if (this.type === 'array') {
      const items: RubyValue[] = [];
      for (const [name, nodes] of groups) {
        if (nodes.length === 1) items.push(Object.values(nodes[0]!.toHash())[0]!);
        else items.push(nodes.map((n) => n.toHash()[name]!));
      }
      out = items.flat();
    } else {
      const hash: Record<string, RubyValue> = {};
      for (const [name, nodes] of groups) {
        if (nodes.length === 1) Object.assign(hash, nodes[0]!.toHash());
        else hash[name] = nodes.map((n) => n.toHash()[name]!);
      }
      Object.assign(hash, this.attributes);
      out = Object.keys(hash).length === 0 ? null : hash;
    }
    return { [this.name]: out };
  }

  private typecast(text: string): RubyValue {
    const cast = this.type === undefined ? undefined : TYPECASTS[this.type];
    return cast ? cast(text) : text;
  }
}

export function httpartyXmlToHash(xml: string): Record<string, RubyValue> {
  const parser = new SaxesParser();
  const stack: UtilityNode[] = [];
  let root: UtilityNode | undefined;
  parser.on('opentag', (tag) =>
    stack.push(new UtilityNode(tag.name, tag.attributes as Record<string, string>)),
  );
  parser.on('closetag', () => {
    const node = stack.pop()!;
    if (stack.length > 0) stack.at(-1)!.add(node);
    else root = node;
  });
  const text = (value: string) => {
    if (value.trim().length > 0 && stack.length > 0) stack.at(-1)!.add(value);
  };
  parser.on('text', text);
  parser.on('cdata', text);
  parser.write(xml).close();
  if (!root) throw new Error('no root element');
  return root.toHash();
}
