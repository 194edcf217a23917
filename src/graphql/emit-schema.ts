import fs from 'node:fs';
import path from 'node:path';
import { createPasswordHasher } from '../modules/staff';
import { createGeocoder } from '../modules/companies';
import { createSchema, printSortedSchema } from './schema';
import { createServices } from './services';

/** `npm run schema:emit`: writes schema/schema.graphql from the code. */
export const SCHEMA_FILE = path.join('schema', 'schema.graphql');

if (require.main === module) {
  createSchema(
    createServices(createPasswordHasher(8), createGeocoder({ geocoder: { kind: 'none' } })),
  )
    .then((schema) => {
      fs.writeFileSync(SCHEMA_FILE, printSortedSchema(schema));
      process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
