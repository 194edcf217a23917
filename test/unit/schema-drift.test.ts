import fs from 'node:fs';
import path from 'node:path';
import { createPasswordHasher } from '../../src/modules/staff/passwords';
import { createSchema, printSortedSchema } from '../../src/graphql/schema';
import { createServices } from '../../src/graphql/services';
import { createGeocoder } from '../../src/modules/companies/geocoder';

test('schema/schema.graphql is what the code generates (run `npm run schema:emit` after a change)', async () => {
  const generated = printSortedSchema(
    await createSchema(
      createServices(createPasswordHasher(8), createGeocoder({ geocoder: { kind: 'none' } })),
    ),
  );
  const committed = fs.readFileSync(
    path.join(__dirname, '..', '..', 'schema', 'schema.graphql'),
    'utf8',
  );
  // Byte for byte: the file is graphql-js's own print (prettier leaves it alone), which is what
  // tools compare with the served schema.
  expect(committed).toBe(generated);
});
