import fs from 'node:fs';
import path from 'node:path';
import { createPasswordHasher } from '../auth/passwords';
import { createGeocoder } from '../modules/companies/geocoder';
import { createSchema, printSortedSchema } from './schema';
import { createServices } from './services';

/** `npm run schema:emit`: writes schema/schema.graphql from the code. */
export const SCHEMA_FILE = path.join('schema', 'schema.graphql');

/** The text laid out as `prettier --write` would leave it, so the written file passes `npm run lint`. */
async function prettierFormat(file: string, text: string): Promise<string> {
  // Loaded only here: prettier is a development dependency, and only this script needs it.
  const prettier = await import('prettier');
  return prettier.format(text, { ...(await prettier.resolveConfig(file)), filepath: file });
}

if (require.main === module) {
  createSchema(
    createServices(createPasswordHasher(8), createGeocoder({ geocoder: { kind: 'none' } })),
  )
    .then((schema) => prettierFormat(SCHEMA_FILE, printSortedSchema(schema)))
    .then((text) => {
      fs.writeFileSync(SCHEMA_FILE, text);
      process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
