const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** PostgreSQL `integer`: anything outside cannot be a row id. */
export function isRowId(value: number): boolean {
  return Number.isInteger(value) && value > 0 && value <= 2_147_483_647;
}
