import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type Response } from 'express';
import { packageRoot } from '../core/package-root';
import { ROUTE_TEMPLATE_LOCAL } from './observability/route-labels';
import { hashedPageHeaders } from './page-headers';

/**
 * The web app (web/, built by Vite into dist/web by `npm run build`): its page at `/` and its
 * content-addressed files under `/app/`. It is a client of the public interfaces only (OAuth 2.0,
 * /graphql and graphql-ws), so the server does nothing for it but serve files.
 */

const WEB_ROOT = path.join(packageRoot(), 'dist', 'web');
const ASSETS = '/app/assets';

/**
 * Everything from this process. `'self'` in connect-src covers the page's own ws:/wss: origin
 * (live events). The app sets styles through the DOM only, so no `'unsafe-inline'` at all.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  // The page signs in by sending the browser to the approval page, never by posting a form.
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function createWebAppRouter(): Router {
  const router = Router();
  const indexFile = path.join(WEB_ROOT, 'index.html');
  const page = existsSync(indexFile) ? readFileSync(indexFile) : undefined;

  router.get('/', (_req, res) => {
    res.locals[ROUTE_TEMPLATE_LOCAL] = '/';
    if (!page) {
      res
        .status(404)
        .type('text/plain')
        .send('The web app is not built here: run `npm run build`, then start the service again.');
      return;
    }
    res.set(hashedPageHeaders(CONTENT_SECURITY_POLICY));
    res.send(page);
  });

  router.use(ASSETS, (_req: express.Request, res: Response, next) => {
    res.locals[ROUTE_TEMPLATE_LOCAL] = `${ASSETS}/*path`;
    next();
  });
  router.use(
    ASSETS,
    express.static(path.join(WEB_ROOT, 'assets'), {
      immutable: true,
      maxAge: '365d',
      index: false,
      fallthrough: false,
      setHeaders: (res) => res.set('X-Content-Type-Options', 'nosniff'),
    }),
  );
  return router;
}
