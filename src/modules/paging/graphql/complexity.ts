/**
 * The type-graphql `complexity` of a plain list field: `expectedLength` objects of its selection.
 * Use it on every list of objects that is not a paged connection; the cost guard of
 * src/graphql/operation-guards.ts adds these up.
 */
export function listComplexity(expectedLength: number) {
  return ({ childComplexity }: { childComplexity: number }) => 1 + expectedLength * childComplexity;
}
