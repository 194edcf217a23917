import fs from 'node:fs';
import path from 'node:path';
import { CSV_ROUTES } from './downloads/download-routes';
import { JSON_ROUTES } from './index';
import { buildOpenApiDocument, formatOpenApiDocument } from './openapi';

/** `npm run openapi:emit`: writes schema/openapi.json from the route tables. */
export const OPENAPI_FILE = path.join('schema', 'openapi.json');

/** The text laid out as `prettier --write` would leave it, so the written file passes `npm run lint`. */
async function prettierFormat(file: string, text: string): Promise<string> {
  // Loaded only here: prettier is a development dependency, and only this script needs it.
  const prettier = await import('prettier');
  return prettier.format(text, { ...(await prettier.resolveConfig(file)), filepath: file });
}

if (require.main === module) {
  prettierFormat(OPENAPI_FILE, formatOpenApiDocument(buildOpenApiDocument(JSON_ROUTES, CSV_ROUTES)))
    .then((text) => {
      fs.writeFileSync(OPENAPI_FILE, text);
      process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
