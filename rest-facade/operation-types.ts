import type { FacadeOperations } from './operations/generated';

/**
 * The facade's operations as the compiler sees them: `operations/generated.ts` is generated from
 * the `.graphql` documents against schema/schema.graphql (`npm run codegen`), so a route that
 * renders a field its operation no longer selects, or passes a variable it does not declare with
 * a type it does not have, fails to compile.
 */
export type OperationName = keyof FacadeOperations;

/** The value of operation N's one root field: what its route renders. */
export type RootOf<N extends OperationName> = FacadeOperations[N]['root'];

/**
 * An input object assembled at run time from the wire by an input table (json/input-fields.ts):
 * which fields a client sends is only known then, and GraphQL validates the object against its
 * input type (a required field left out is the client's error), so only its place is typed.
 */
export type MappedInput = Readonly<Record<string, unknown>>;

/** The variables of operation N: its generated types, the `input` object as a MappedInput. */
export type VariablesOf<N extends OperationName> = {
  [K in keyof FacadeOperations[N]['variables']]: K extends 'input'
    ? MappedInput
    : FacadeOperations[N]['variables'][K];
};
