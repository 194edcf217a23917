import fs from 'node:fs';
import path from 'node:path';
import { createPasswordHasher } from '../modules/staff';
import { createGeocoder } from '../modules/companies';
import { LEGACY_FRAGMENTS_FILE, LEGACY_TABLES_FILE, legacyWireTables } from './legacy-wire-tables';
import { createSchema, printSortedSchema } from './schema';
import { createServices } from './services';

/**
 * `npm run schema:emit`: writes schema/schema.graphql from the code, and the legacy facade's wire
 * tables from the field declarations (then `npm run codegen` types the facade's operations).
 */
export const SCHEMA_FILE = path.join('schema', 'schema.graphql');

if (require.main === module) {
  createSchema(
    createServices(createPasswordHasher(8), createGeocoder({ geocoder: { kind: 'none' } })),
  )
    .then((schema) => {
      const legacy = legacyWireTables(schema);
      for (const [file, text] of [
        [SCHEMA_FILE, printSortedSchema(schema)],
        [LEGACY_TABLES_FILE, legacy.tables],
        [LEGACY_FRAGMENTS_FILE, legacy.fragments],
      ] as const) {
        fs.writeFileSync(file, text);
        process.stdout.write(`wrote ${file}\n`);
      }
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
