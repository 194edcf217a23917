import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Router, type Request, type Response } from 'express';
import type { Config } from '../core/config';
import { ROUTE_TEMPLATE_LOCAL } from './observability/route-labels';
import { hashedPageHeaders } from './page-headers';

/**
 * The GraphiQL IDE a browser gets on GET /graphql. Everything it loads comes from this process:
 * the UMD bundles of the installed npm packages plus a small bootstrap script and style sheet of
 * our own, so it works on a closed network and its Content-Security-Policy can be `script-src
 * 'self'`. GraphQL clients are unaffected: only a GET that prefers HTML and carries no `query`
 * parameter gets the page; everything else falls through to Apollo.
 */

const ASSET_PREFIX = '/graphql/ide';

/**
 * `'unsafe-inline'` for styles only: GraphiQL's dialogs (Radix, react-remove-scroll) insert
 * `<style>` elements at run time. Scripts stay `'self'`: the page has no inline script at all.
 * `'self'` in connect-src also covers the page's own ws:/wss: origin (subscriptions).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  // GraphiQL's style sheet embeds its fonts as data: URLs.
  "font-src 'self' data:",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  // The credentials form is handled by script; if the script failed, nothing may submit it.
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface Asset {
  /** Content-addressed, so a new package version or bootstrap is a new URL and caches can keep old ones forever. */
  readonly url: string;
  readonly contentType: string;
  readonly body: Buffer;
}

/** GET /graphql (browsers) and GET /graphql/ide/<hash>/<file>; an empty router when GRAPHIQL=false. */
export function createGraphiQLRouter(config: Pick<Config, 'graphiql'>): Router {
  const router = Router();
  if (!config.graphiql) return router;

  const assets = {
    react: assetOf('react.production.min.js', packageFile('react', 'umd/react.production.min.js')),
    reactDom: assetOf(
      'react-dom.production.min.js',
      packageFile('react-dom', 'umd/react-dom.production.min.js'),
    ),
    graphiql: assetOf('graphiql.min.js', packageFile('graphiql', 'graphiql.min.js')),
    graphiqlCss: assetOf('graphiql.min.css', packageFile('graphiql', 'graphiql.min.css')),
    bootstrap: assetOf('graphiql-page.js', Buffer.from(BOOTSTRAP_SCRIPT)),
    pageCss: assetOf('graphiql-page.css', Buffer.from(PAGE_STYLE)),
  };
  const byUrl = new Map(Object.values(assets).map((asset) => [asset.url, asset]));
  const page = renderPage(assets);

  router.get('/graphql', (req, res, next) => {
    if (!wantsGraphiQLPage(req)) return next();
    // Counted as the page, not as an anonymous GraphQL operation.
    res.locals[ROUTE_TEMPLATE_LOCAL] = '/graphql';
    res.set({
      ...hashedPageHeaders(CONTENT_SECURITY_POLICY),
      // The same URL answers JSON to GraphQL clients.
      Vary: 'Accept',
    });
    res.send(page);
  });

  router.get(`${ASSET_PREFIX}/*path`, (req, res) => {
    res.locals[ROUTE_TEMPLATE_LOCAL] = `${ASSET_PREFIX}/*path`;
    const asset = byUrl.get(req.path);
    if (!asset) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    sendAsset(res, asset);
  });
  return router;
}

/**
 * A browser navigating to /graphql: a GET whose Accept prefers HTML over every GraphQL response
 * type (Apollo's own test for its landing page) and that asks no operation. A GET with `?query=`
 * is a GraphQL request whatever it accepts.
 */
export function wantsGraphiQLPage(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (req.query.query !== undefined) return false;
  if (!req.headers.accept) return false;
  return (
    req.accepts([
      'application/json',
      'application/graphql-response+json',
      'multipart/mixed',
      'text/html',
    ]) === 'text/html'
  );
}

function sendAsset(res: Response, asset: Asset): void {
  res.set({
    'Content-Type': asset.contentType,
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
  });
  res.send(asset.body);
}

/**
 * A file of an installed package. Their export maps hide the UMD files from require.resolve, but
 * each exports its package.json, which sits beside them; resolving it finds node_modules wherever
 * it is.
 */
function packageFile(packageName: string, file: string): Buffer {
  return readFileSync(
    path.join(path.dirname(require.resolve(`${packageName}/package.json`)), file),
  );
}

function assetOf(name: string, body: Buffer): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  const contentType = name.endsWith('.css')
    ? 'text/css; charset=utf-8'
    : 'text/javascript; charset=utf-8';
  return { url: `${ASSET_PREFIX}/${hash}/${name}`, contentType, body };
}

/** A fixed template: the only values put in are our own asset URLs (hex hashes and fixed names). */
function renderPage(
  assets: Record<
    'react' | 'reactDom' | 'graphiql' | 'graphiqlCss' | 'bootstrap' | 'pageCss',
    Asset
  >,
): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<link rel="icon" href="data:,">
<title>timetrack · GraphiQL</title>
<link rel="stylesheet" href="${assets.graphiqlCss.url}">
<link rel="stylesheet" href="${assets.pageCss.url}">
</head>
<body>
<form id="credentials" method="post" autocomplete="on">
  <strong class="title">timetrack GraphQL</strong>
  <label>Login <input id="login" name="username" autocomplete="username" spellcheck="false"></label>
  <label>Password <input id="password" name="password" type="password" autocomplete="current-password"></label>
  <span class="or">or</span>
  <label>Bearer token <input id="token" name="token" autocomplete="off" spellcheck="false"></label>
  <button type="submit" id="use-credentials">Use credentials</button>
  <output id="credentials-status" aria-live="polite">No credentials yet: enter a login and password (or a token) and press “Use credentials”.</output>
</form>
<main id="graphiql"><noscript>The GraphQL IDE needs JavaScript.</noscript></main>
<script src="${assets.react.url}"></script>
<script src="${assets.reactDom.url}"></script>
<script src="${assets.graphiql.url}"></script>
<script src="${assets.bootstrap.url}"></script>
</body>
</html>
`;
}

const PAGE_STYLE = `
html, body { height: 100%; margin: 0; }
body { display: flex; flex-direction: column; color-scheme: light dark; font-family: system-ui, sans-serif; }
#credentials {
  display: flex; flex-wrap: wrap; align-items: center; gap: 6px 12px;
  padding: 8px 12px; font-size: 14px;
  background: Canvas; color: CanvasText; border-bottom: 1px solid GrayText;
}
#credentials .title { margin-right: 8px; }
#credentials .or { color: GrayText; }
#credentials input { font: inherit; padding: 2px 6px; width: 12em; }
#credentials button { font: inherit; padding: 2px 10px; cursor: pointer; }
#credentials-status { flex-basis: 100%; color: GrayText; }
#credentials-status.signed-in { color: inherit; }
#credentials-status.refused { color: #c00; }
#graphiql { flex: 1; min-height: 0; }
`;

/**
 * Runs in the browser, served as /graphql/ide/<hash>/graphiql-page.js (no inline script, so the
 * CSP needs no nonce). Plain ES2020 with no build step: the globals React, ReactDOM and GraphiQL
 * come from the UMD bundles loaded before it.
 */
const BOOTSTRAP_SCRIPT = `'use strict';
(function () {
  var endpoint = new URL('/graphql', window.location.href);
  var socketEndpoint = new URL(endpoint.href);
  socketEndpoint.protocol = endpoint.protocol === 'https:' ? 'wss:' : 'ws:';

  var DEFAULT_QUERY = [
    '# The timetrack GraphQL API.',
    '#',
    '# Sign in with the form above: a login and',
    '# password (HTTP Basic) or an OAuth 2.0 bearer',
    '# token. An Authorization header set in the',
    '# Headers tab below wins over the form.',
    '#',
    '# Run with the run button or Ctrl-Enter; the',
    '# Docs button on the left lists the schema.',
    '',
    '{',
    '  viewer {',
    '    staff { login type }',
    '    account { name }',
    '  }',
    '}',
    '',
  ].join('\\n');

  // Kept in this tab's memory only: never written to storage, gone on reload.
  var authorization = '';

  function basicAuthorization(login, password) {
    // The server's challenge says charset="UTF-8": encode the UTF-8 bytes, which btoa alone cannot.
    var bytes = new TextEncoder().encode(login + ':' + password);
    var binary = '';
    for (var i = 0; i < bytes.length; i += 1) binary += String.fromCharCode(bytes[i]);
    return 'Basic ' + window.btoa(binary);
  }

  function withCredentials(init) {
    var options = Object.assign({}, init);
    var headers = new Headers(options.headers || {});
    if (authorization && !headers.has('authorization')) headers.set('authorization', authorization);
    options.headers = headers;
    // Never the browser's own credentials: no cached Basic login or cookies sent along, and no
    // browser login dialog when the server answers 401.
    options.credentials = 'omit';
    return options;
  }

  function createFetcher() {
    return GraphiQL.createFetcher({
      url: endpoint.href,
      subscriptionUrl: socketEndpoint.href,
      wsConnectionParams: authorization ? { authorization: authorization } : {},
      fetch: function (input, init) { return window.fetch(input, withCredentials(init)); },
    });
  }

  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  function render() {
    // A new fetcher makes GraphiQL fetch the schema again, now with the new credentials.
    root.render(React.createElement(GraphiQL, {
      fetcher: createFetcher(),
      defaultQuery: DEFAULT_QUERY,
      shouldPersistHeaders: false,
    }));
  }

  var form = document.getElementById('credentials');
  var status = document.getElementById('credentials-status');
  function show(text, kind) {
    status.textContent = text;
    status.className = kind;
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var login = document.getElementById('login').value.trim();
    var password = document.getElementById('password').value;
    var token = document.getElementById('token').value.trim();
    if (token) {
      authorization = 'Bearer ' + token;
      show('Requests carry the bearer token.', 'signed-in');
    } else if (login.indexOf(':') >= 0) {
      show('A login cannot contain ":".', 'refused');
      return;
    } else if (login) {
      authorization = basicAuthorization(login, password);
      show('Requests carry the Basic credentials of ' + login + '.', 'signed-in');
    } else {
      authorization = '';
      show('No credentials: requests are sent without an Authorization header.', '');
    }
    render();
  });
  render();
})();
`;
