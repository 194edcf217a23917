import { SaxesParser } from 'saxes';

/**
 * Readers of legacy answers shared by the facade contract tests: the JSON error envelope and
 * list envelope, and a strict XML reader (saxes, never the library that writes the answers).
 */

/** Keys a JSON error body may carry. */
export const ERROR_KEYS = new Set([
  'code',
  'status',
  'title',
  'message',
  'field_errors',
  'position',
  'parameter',
]);

interface Answer {
  status: number;
  body: any;
  headers: Record<string, unknown>;
}

export function expectJson(res: { headers: Record<string, unknown> }): void {
  expect(res.headers['content-type']).toMatch(/^application\/json\b/);
}

/** An error answer: status, catalogue code, and the documented body shape. */
export function expectError(res: Answer, status: number, code: string, title?: string): any {
  expect({ status: res.status, body: res.body }).toMatchObject({
    status,
    body: { error: { code, status } },
  });
  expectJson(res);
  expect(Object.keys(res.body)).toEqual(['error']);
  const error = res.body.error;
  for (const key of Object.keys(error)) expect(ERROR_KEYS).toContain(key);
  expect(typeof error.title).toBe('string');
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  if (title) expect(error.title).toBe(title);
  return error;
}

/** `{response: [...], count}` with status 200. */
export function list(res: Answer): { items: any[]; count: number } {
  if (res.status !== 200)
    throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
  expectJson(res);
  expect(Object.keys(res.body).sort()).toEqual(['count', 'response']);
  expect(Array.isArray(res.body.response)).toBe(true);
  expect(Number.isInteger(res.body.count)).toBe(true);
  return { items: res.body.response, count: res.body.count };
}

export interface XmlElement {
  readonly name: string;
  readonly attributes: Record<string, string>;
  readonly children: XmlElement[];
  text: string;
}

/** Strict parse with saxes: throws on any well-formedness error and on a DOCTYPE. */
export function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser({ xmlns: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('doctype', () => {
    throw new Error('an answer must not carry a DOCTYPE');
  });
  parser.on('opentag', (tag) => {
    const element: XmlElement = {
      name: tag.name,
      attributes: { ...(tag.attributes as Record<string, string>) },
      children: [],
      text: '',
    };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(element);
    else root = element;
    stack.push(element);
  });
  const onText = (text: string) => {
    const top = stack[stack.length - 1];
    if (top) top.text += text;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(xml).close();
  if (!root) throw new Error('no root element');
  return root;
}
