import express, { type Request, type RequestHandler, type Response } from 'express';
import { BadRequestError, errorHeadersOf, HttpRefusalError } from '../../src/core/errors';
import { credentialsOf } from '../../src/core/request-context';
import type { Responder, WireFormat } from '../dispatcher';
import { LEGACY_ERRORS, xmlErrorType, type FacadeError } from '../errors';
import { hasBody, runBodyParser } from '../body-reading';
import { writeChunks } from '../list-pages';
import type { Route } from '../route-table';
import { parseXmlBody } from './xml-body';
import type { WrittenNodes } from '../../src/core/node-writer';
import {
  element,
  itemsText,
  listDocument,
  renderXml,
  renderXmlList,
  text,
  type XmlNode,
} from './xml-writer';

/**
 * What an XML route renders: the document's root element, and where a created object lives; or a
 * list whose items are written already (`<shifts type="array">` of a read compiled to SQL).
 */
export type XmlAnswer =
  | { readonly node: XmlNode; readonly location?: string }
  | { readonly collection: string; readonly items: WrittenNodes };

/** A route of the XML table. */
export type XmlRoute = Route<XmlAnswer>;

const XML_TYPE = 'application/xml; charset=utf-8';

function send(res: Response, status: number, node: XmlNode): void {
  res.status(status).type(XML_TYPE).send(renderXml(node));
}

/** `<errors><error type="Project::PunchedIn">message</error></errors>`, one error per bad field. */
export function xmlErrorNode(error: FacadeError, route: XmlRoute | undefined): XmlNode {
  const type = xmlErrorType(error, route?.entity ?? 'User');
  const messages = error.fieldErrors?.length
    ? error.fieldErrors.map(
        (fe) => `${route?.legacyFieldName?.(fe.field) ?? fe.field} ${fe.message}`,
      )
    : [error.message];
  return element(
    'errors',
    messages.map((message) => text('error', message, { type })),
  );
}

/** A list page's name (`shifts`) and its items' text. */
function listOf(answer: XmlAnswer): { readonly name: string; readonly items: string } {
  if ('items' in answer) return { name: answer.collection, items: answer.items.text };
  if (answer.node.kind !== 'array') throw new Error(`<${answer.node.name}> is not a list`);
  return { name: answer.node.name, items: itemsText(answer.node.items) };
}

const responder: Responder<XmlAnswer> = {
  success(res, status, answer) {
    if ('items' in answer) {
      const { name, items } = listOf(answer);
      res.status(status).type(XML_TYPE).send(listDocument(name, items));
      return;
    }
    if (answer.location) res.setHeader('Location', answer.location);
    send(res, status, answer.node);
  },
  async pages(res, status, first, rest) {
    res.status(status).type(XML_TYPE);
    const { name, items } = listOf(first);
    await writeChunks(
      res,
      renderXmlList(
        name,
        (async function* () {
          yield items;
          for await (const page of rest) yield listOf(page).items;
        })(),
      ),
    );
  },
  failure(res, error, route) {
    send(
      res.set(errorHeadersOf(error)),
      LEGACY_ERRORS[error.code].status,
      xmlErrorNode(error, route),
    );
  },
};

/**
 * Root-level `*.xml` paths with integer ids. Bodies are read as bytes under the size cap, decoded
 * as strict UTF-8 and parsed by the streaming parser of xml-body.ts; other paths pass through.
 */
export function xmlFormat(bodyLimitBytes: number): WireFormat<XmlAnswer> {
  const raw: RequestHandler = express.raw({ type: () => true, limit: bodyLimitBytes });
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  return {
    fallback: responder,
    negotiate(req: Request) {
      if (!req.path.endsWith('.xml')) return undefined;
      return {
        path: req.path.slice(0, -'.xml'.length),
        responder,
        credentials: credentialsOf(req),
      };
    },
    async readBody(req, res) {
      if (!hasBody(req)) return {};
      if (req.headers['content-type'] && !req.is(['application/xml', 'text/xml', '+xml'])) {
        throw new HttpRefusalError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/xml');
      }
      await runBodyParser(raw, req, res);
      const bytes: unknown = req.body;
      let source: string;
      try {
        source = utf8.decode(Buffer.isBuffer(bytes) ? bytes : Buffer.alloc(0));
      } catch {
        throw new BadRequestError('The XML body is not valid UTF-8');
      }
      if (!source.trim()) return {};
      const { root, value } = parseXmlBody(source);
      // Keyed by the root element, as a JSON body is by its resource key, so that the route can
      // tell a `<project>` sent to a company path from a `<company>` (xml-routes.ts).
      // `<company/>` names the resource and gives no fields.
      if (value === null || (typeof value === 'string' && !value.trim())) return { [root]: {} };
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new BadRequestError('The XML body must be one element with child elements');
      }
      return { [root]: value };
    },
  };
}
