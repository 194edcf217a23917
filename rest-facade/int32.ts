/** The range of GraphQL `Int` (and PostgreSQL `integer`): legacy numbers outside it are refused. */
export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;
