import { SaxesParser } from 'saxes';
import { BadRequestError } from '../../src/core/errors';

/** Deeper than any legacy body (`<shift><user_ids><user_id>`) with room to spare. */
export const MAX_XML_DEPTH = 16;
/** Elements and attributes together; a legacy body has a few dozen. */
export const MAX_XML_NODES = 10_000;

/** An element's value: its text, null for `nil="true"`, a list for `type="array"`, or its children. */
export type XmlValue = string | null | XmlValue[] | { [name: string]: XmlValue };

interface Frame {
  readonly name: string;
  readonly nil: boolean;
  readonly array: boolean;
  text: string;
  children: [string, XmlValue][];
}

/**
 * Reads a legacy XML body (already decoded, size-capped text) into plain values with saxes, a
 * streaming parser: no DOCTYPE, so no DTD, no external entities and no entity expansion; only the
 * five predefined entities and character references exist. Depth and node counts are capped, so
 * every input is refused in time linear in its length.
 */
export function parseXmlBody(text: string): { root: string; value: XmlValue } {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const stack: Frame[] = [];
  let result: { root: string; value: XmlValue } | undefined;
  let nodes = 0;
  let failure: string | undefined;
  const fail = (message: string) => {
    failure ??= message;
  };

  parser.on('doctype', () => fail('DOCTYPE declarations are not accepted'));
  parser.on('processinginstruction', () => undefined);
  parser.on('error', (error) => fail(`The body is not well-formed XML: ${error.message}`));
  parser.on('opentag', (tag) => {
    nodes += 1 + Object.keys(tag.attributes).length;
    if (nodes > MAX_XML_NODES) return fail('The XML body has too many elements');
    if (stack.length >= MAX_XML_DEPTH)
      return fail(`The XML body is nested deeper than ${MAX_XML_DEPTH} levels`);
    if (!stack.length && result) return fail('The XML body has more than one root element');
    const attributes = tag.attributes as Record<string, string>;
    stack.push({
      name: tag.name,
      nil: attributes.nil === 'true',
      array: attributes.type === 'array',
      text: '',
      children: [],
    });
  });
  const onText = (chunk: string) => {
    const top = stack[stack.length - 1];
    if (top) top.text += chunk;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    const frame = stack.pop();
    if (!frame) return;
    const value = valueOf(frame);
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push([frame.name, value]);
    else result = { root: frame.name, value };
  });

  // saxes keeps going after an error; stop feeding at the first one.
  const CHUNK = 64 * 1024;
  for (let offset = 0; offset < text.length && !failure; offset += CHUNK)
    parser.write(text.slice(offset, offset + CHUNK));
  if (!failure) parser.close();
  if (failure) throw new BadRequestError(failure);
  if (!result) throw new BadRequestError('The XML body has no root element');
  return result;
}

function valueOf(frame: Frame): XmlValue {
  if (frame.nil) return null;
  if (frame.array) return frame.children.map(([, value]) => value);
  if (!frame.children.length) return frame.text;
  const object: { [name: string]: XmlValue } = Object.create(null) as { [name: string]: XmlValue };
  for (const [name, value] of frame.children) object[name] = value;
  return object;
}
