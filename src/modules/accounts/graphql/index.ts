/**
 * The GraphQL side of accounts: the account settings input (the viewer's `updateAccount` in
 * staff/graphql takes it). The schema assembly (src/graphql/schema.ts) imports it, and so may
 * another module's graphql/ folder that extends these types; nothing else does.
 */
export { AccountInput } from './account.inputs';
