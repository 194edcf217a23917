import fs from 'node:fs';
import path from 'node:path';
import { JSON_ROUTES } from './index';
import { buildOpenApiDocument, formatOpenApiDocument } from './openapi';

/** `npm run openapi:emit`: writes schema/openapi.json from the route tables. */
export const OPENAPI_FILE = path.join('schema', 'openapi.json');

if (require.main === module) {
  try {
    fs.writeFileSync(OPENAPI_FILE, formatOpenApiDocument(buildOpenApiDocument(JSON_ROUTES)));
    process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  }
}
