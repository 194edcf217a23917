import { createHash } from 'node:crypto';
import type { Response } from 'express';

/**
 * The HTML of the OAuth flows: the approval page, the out-of-band verifier, errors, and the
 * `/oauth/authorized` landing page of the implicit flow. Plain templates: every interpolated value
 * goes through `escapeHtml`, and the pages may not be framed (clickjacking) or cached.
 */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
main{max-width:26rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin-top:0}label{display:block;margin:.8rem 0}input{display:block;width:100%;padding:.4rem;box-sizing:border-box}
button{padding:.5rem 1.2rem;margin:1rem .5rem 0 0}.error{color:#a01515}code{font-size:1.3rem;word-break:break-all}`;

function page(res: Response, status: number, title: string, body: string, script?: string): void {
  const scriptHash = script && createHash('sha256').update(script).digest('base64');
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Frame-Options': 'DENY',
      // Not `no-referrer`: under it a browser posts the approval form with `Origin: null`, which
      // the cross-site guard cannot tell from a forged post. Other sites still get no Referer.
      'Referrer-Policy': 'same-origin',
      'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'${scriptHash ? `; script-src 'sha256-${scriptHash}'` : ''}`,
    })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
        `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main>` +
        `${script ? `<script>${script}</script>` : ''}</body></html>`,
    );
}

/** The sign-in and consent form; `fields` are the flow's parameters, carried as hidden inputs. */
export function approvalPage(
  res: Response,
  options: { clientName: string; fields: Record<string, string>; error?: string; status?: number },
): void {
  const hidden = Object.entries(options.fields)
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('');
  const app = escapeHtml(options.clientName);
  page(
    res,
    options.status ?? 200,
    `Authorize ${options.clientName}`,
    `<p><strong>${app}</strong> asks to use timetrack as you: it will read and change what you can, until you revoke it.</p>` +
      (options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : '') +
      `<form method="post" action="/oauth/authorize">${hidden}` +
      `<label>Login <input name="login" autocomplete="username" required></label>` +
      `<label>Password <input type="password" name="password" autocomplete="current-password" required></label>` +
      `<button name="decision" value="approve">Allow</button><button name="decision" value="deny" formnovalidate>Deny</button></form>`,
  );
}

/** OAuth 1.0a `oob`: the user copies the verifier into the desktop application. */
export function verifierPage(res: Response, clientName: string, verifier: string): void {
  page(
    res,
    200,
    'Authorized',
    `<p>Enter this code in ${escapeHtml(clientName)}:</p><p><code id="verifier">${escapeHtml(verifier)}</code></p>`,
  );
}

export function messagePage(res: Response, status: number, title: string, message: string): void {
  page(res, status, title, `<p>${escapeHtml(message)}</p>`);
}

/**
 * Where the implicit flow of a command-line client lands. The token is in the URL fragment, which
 * never reaches the server, and the CLI wants the page's whole address pasted back (it checks the
 * `#access_token=…&state=` form and takes the token out itself), so the page shows that address
 * with a button that copies it. A denial shows the error instead.
 */
const SHOW_ADDRESS = `const p=new URLSearchParams(location.hash.slice(1)),a=document.getElementById('address'),s=document.getElementById('status'),b=document.getElementById('copy');
if(p.get('access_token')){a.value=location.href;a.hidden=false;b.hidden=false;s.textContent='Copy the whole address of this page, and paste it into your application where it asks for the URL:';}
else if(p.get('error')){s.textContent='Not authorized: '+(p.get('error_description')||p.get('error'));}
b.addEventListener('click',async()=>{a.select();try{await navigator.clipboard.writeText(location.href);}catch{document.execCommand('copy');}b.textContent='Copied';});`;

export function authorizedPage(res: Response): void {
  page(
    res,
    200,
    'Authorized',
    `<p id="status">This address carries no access token: start again from your application.</p>` +
      `<textarea id="address" rows="4" readonly hidden style="width:100%;box-sizing:border-box;font:14px monospace"></textarea>` +
      `<button id="copy" type="button" hidden>Copy address</button>`,
    SHOW_ADDRESS,
  );
}
