import { AppError, ServiceUnavailableError, ValidationError } from '../errors';

/**
 * Maps what PostgreSQL refused into the error catalogue, so a constraint the code did not check
 * first still reaches the client as a coded 4xx, never as a 500. Returns undefined for anything
 * that is a real fault.
 */
const UNIQUE_CONSTRAINTS: Record<string, [field: string, message: string]> = {
  users_login_unique: ['login', 'is already taken'],
  shifts_one_running_per_user: ['stop', 'the user already has a running shift'],
};

export function mapDatabaseError(error: unknown): AppError | undefined {
  const e = error as { code?: string; constraint?: string; message?: string; name?: string } | null;
  if (!e || typeof e !== 'object') return undefined;
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (e.name === 'ConnectionException' || (code && ['ECONNREFUSED', 'ECONNRESET', '57P01', '57P03', '08006', '08001'].includes(code))) {
    return new ServiceUnavailableError();
  }
  if (e.name === 'KnexTimeoutError' || /Knex: Timeout acquiring a connection/.test(e.message ?? '')) {
    return new ServiceUnavailableError('The database is busy; try again shortly');
  }
  if (!code) return undefined;
  const constraint = e.constraint ?? /constraint "([^"]+)"/.exec(e.message ?? '')?.[1] ?? '';
  switch (code) {
    case '23505': {
      const [field, message] = UNIQUE_CONSTRAINTS[constraint] ?? (constraint.endsWith('uuid_key') ? ['id', 'is already taken'] : ['input', 'duplicates an existing record']);
      return ValidationError.field(undefined, field, message);
    }
    case '23514':
      return constraint === 'shifts_stop_after_start'
        ? ValidationError.field('Shift', 'stop', 'must be after start')
        : ValidationError.field(undefined, 'input', 'breaks a rule of the data');
    case '23503':
      return ValidationError.field(undefined, 'input', 'refers to a record that does not exist');
    case '22001':
      return ValidationError.field(undefined, 'input', 'a value is too long');
    case '22003':
    case '22008':
    case '22007':
    case '22P02':
    case '22021':
    case '22P05':
      return ValidationError.field(undefined, 'input', 'a value is out of range or malformed');
    case '57014':
      return new ServiceUnavailableError('The query took too long and was cancelled');
    default:
      return undefined;
  }
}
