import fs from 'node:fs';
import path from 'node:path';
import { parse, print } from 'graphql';
import { createPasswordHasher } from '../../src/auth/passwords';
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
  // Compared as GraphQL syntax (printed back by graphql-js), not as text, so that the layout
  // prettier gives the file (`npm run schema:emit` writes it so, `npm run lint` checks it) is not
  // drift while any change of a type, field, argument, description, directive or order is.
  expect(print(parse(committed))).toBe(print(parse(generated)));
});
