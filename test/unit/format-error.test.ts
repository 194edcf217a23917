import { GraphQLError } from 'graphql';
import { NotFoundError, ValidationError } from '../../src/core/errors';
import { formatError } from '../../src/graphql/format-error';
import { createLogger, withLogger } from '../../src/core/logger';
import { LogCapture } from '../support/log-capture';

/** Resolver errors reach formatError as GraphQLErrors with a path, wrapping the thrown error. */
const resolverError = (originalError: Error) =>
  new GraphQLError('wrapped', { originalError, path: ['x'] });
const formatted = (error: GraphQLError) =>
  formatError({ message: error.message, path: ['x'], extensions: error.extensions }, error);

test('catalogue errors keep their code, message and details', () => {
  const error = resolverError(ValidationError.field('Shift', 'stop', 'must be after start'));
  expect(formatted(error)).toEqual({
    message: 'Invalid shift: stop must be after start',
    path: ['x'],
    extensions: {
      code: 'VALIDATION_FAILED',
      entity: 'Shift',
      fieldErrors: [{ field: 'stop', message: 'must be after start' }],
    },
  });
  expect(formatted(resolverError(new NotFoundError('Project'))).extensions).toEqual({
    code: 'NOT_FOUND',
    entity: 'Project',
  });
});

test('database refusals are mapped to the catalogue', () => {
  const pgError = Object.assign(
    new Error('duplicate key value violates unique constraint "users_login_unique"'),
    { code: '23505', constraint: 'users_login_unique' },
  );
  expect(formatted(resolverError(pgError)).extensions).toEqual({
    code: 'VALIDATION_FAILED',
    fieldErrors: [{ field: 'login', message: 'is already taken' }],
  });
});

test('unexpected errors are masked, and logged on the logger of the request being served', () => {
  const capture = new LogCapture();
  const result = withLogger(createLogger('info', capture).child({ reqId: 'r-1' }), () =>
    formatted(resolverError(new TypeError('secret internals at /srv/app.js:12'))),
  );
  expect(result).toEqual({
    message: 'Internal server error',
    path: ['x'],
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  });
  expect(JSON.stringify(result)).not.toMatch(/secret/);
  expect(capture.records()).toEqual([
    expect.objectContaining({
      level: 'error',
      reqId: 'r-1',
      msg: 'unexpected error',
      err: expect.objectContaining({
        type: 'TypeError',
        message: 'secret internals at /srv/app.js:12',
      }),
    }),
  ]);
});
