import { spawn } from 'node:child_process';

/**
 * The text pdf.js (pdfjs-dist, the reader Firefox uses) reads off every page of a PDF, one string
 * per page, its runs of whitespace as single spaces. pdf.js is an ES module, which jest's CommonJS
 * VM cannot import, so it runs in a child Node process that reads the file on stdin. The browser
 * test (test/browser/report-pdf.test.ts) renders the same file as a picture where Chromium is
 * installed; this reads the text everywhere.
 */
const READER = `
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const doc = await getDocument({ data: new Uint8Array(Buffer.concat(chunks)), verbosity: 0 }).promise;
const pages = [];
for (let n = 1; n <= doc.numPages; n++) {
  const page = await doc.getPage(n);
  pages.push((await page.getTextContent()).items.map((item) => item.str).join(' '));
}
process.stdout.write(JSON.stringify(pages));
`;

export function pdfText(file: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', READER], {
      cwd: __dirname,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`pdf.js failed (${code}): ${err}`));
      resolve((JSON.parse(out) as string[]).map((text) => text.replace(/\s+/g, ' ')));
    });
    child.stdin.end(file);
  });
}
