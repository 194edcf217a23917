import { mapDatabaseError } from '../../src/db/database-errors';

/** What the drivers raise when PostgreSQL is gone or does not answer: all of it is a 503, never a 500. */
const codeOf = (error: unknown) => mapDatabaseError(error)?.code;

test.each([
  [
    'a refused connection',
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
  ],
  ['a reset connection', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
  [
    'a server shutting down',
    Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    }),
  ],
  [
    'a server out of connections',
    Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
  ],
  [
    'a connection exception (class 08)',
    Object.assign(new Error('connection failure'), { code: '08006' }),
  ],
  ['a connection lost mid-query', new Error('Connection terminated unexpectedly')],
  [
    'a connection lost mid-query, with knex prefixing the statement',
    new Error('select "s0".* from "shifts" as "s0" limit 1 - Connection terminated unexpectedly'),
  ],
  ['the driver giving up on an answer', new Error('select 1 - Query read timeout')],
  ['a connection not made in time', new Error('timeout expired')],
  [
    'a client already broken',
    new Error('Client has encountered a connection error and is not queryable'),
  ],
  [
    'a transaction whose BEGIN failed',
    new Error('Transaction query already complete, run with DEBUG=knex:tx for more info'),
  ],
  [
    'the pool without a connection',
    Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), {
      name: 'KnexTimeoutError',
    }),
  ],
  [
    'a cancelled statement',
    Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
  ],
  [
    'an error of another realm, wrapped by graphql-js',
    {
      name: 'NonErrorThrown',
      message: 'Unexpected error value',
      thrownValue: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' },
    },
  ],
])('%s is SERVICE_UNAVAILABLE', (_what, error) => {
  expect(codeOf(error)).toBe('SERVICE_UNAVAILABLE');
});

test.each([
  ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
  [
    'a message that only mentions a timeout',
    new Error('the operation timeout expired for user input'),
  ],
  [
    'a syntax error',
    Object.assign(new Error('syntax error at or near "selec"'), { code: '42601' }),
  ],
])('%s stays unmapped (a real fault, masked as INTERNAL_SERVER_ERROR)', (_what, error) => {
  expect(codeOf(error)).toBeUndefined();
});

// Issue 20, finding 3: a deadlock or serialization failure that outlasted inTransaction's retries
// is a collision with concurrent writes, answered 429 with Retry-After, never a 500.
test.each([
  ['a deadlock', Object.assign(new Error('deadlock detected'), { code: '40P01' })],
  [
    'a serialization failure',
    Object.assign(new Error('could not serialize access due to concurrent update'), {
      code: '40001',
    }),
  ],
])('%s is TOO_MANY_REQUESTS with a Retry-After of 1 second', (_what, error) => {
  const mapped = mapDatabaseError(error);
  expect(mapped?.code).toBe('TOO_MANY_REQUESTS');
  expect(mapped?.details).toEqual({ retryAfterSeconds: 1 });
});

test.each([
  ['PostgreSQL names it', { constraint: 'logins_login_unique' }, 'logins_login_unique', 'login'],
  ['PostgreSQL names it, a uuid', { constraint: 'projects_uuid_key' }, 'projects_uuid_key', 'id'],
  // A Citus worker's refusal reaches the coordinator without the name, and its message names the
  // shard's copy of the constraint.
  ['Citus: the shard’s copy in the message', {}, 'logins_login_unique_102648', 'login'],
  ['Citus: a uuid of a shard', {}, 'projects_uuid_key_102010', 'id'],
])('a unique violation names the input field: %s', (_name, fields, named, field) => {
  const error = Object.assign(
    new Error(`duplicate key value violates unique constraint "${named}"`),
    { code: '23505', ...fields },
  );
  expect(mapDatabaseError(error)?.details).toEqual({
    fieldErrors: [{ field, message: 'is already taken' }],
  });
});
