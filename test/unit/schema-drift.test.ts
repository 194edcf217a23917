import fs from 'node:fs';
import path from 'node:path';
import { createPasswordHasher } from '../../src/modules/staff/passwords';
import {
  LEGACY_FRAGMENTS_FILE,
  LEGACY_TABLES_FILE,
  legacyWireTables,
} from '../../src/graphql/legacy-wire-tables';
import { createSchema, printSortedSchema } from '../../src/graphql/schema';
import { createServices } from '../../src/graphql/services';
import { createGeocoder } from '../../src/modules/companies/geocoder';

const ROOT = path.join(__dirname, '..', '..');
const committed = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

const schema = createSchema(
  createServices(createPasswordHasher(8), createGeocoder({ geocoder: { kind: 'none' } })),
);

test('schema/schema.graphql is what the code generates (run `npm run schema:emit` after a change)', async () => {
  // Byte for byte: the file is graphql-js's own print (prettier leaves it alone), which is what
  // tools compare with the served schema.
  expect(committed(path.join('schema', 'schema.graphql'))).toBe(printSortedSchema(await schema));
});

test("the facade's legacy wire tables are what the field declarations generate (`npm run schema:emit`)", async () => {
  const generated = legacyWireTables(await schema);
  expect(committed(LEGACY_TABLES_FILE)).toBe(generated.tables);
  expect(committed(LEGACY_FRAGMENTS_FILE)).toBe(generated.fragments);
});
