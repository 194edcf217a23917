import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import { forgetReads, type RequestContext } from '../core/request-context';

/**
 * Makes every root field of a mutation see the state the fields before it left. The root fields of
 * a mutation run one after the other, and each may change what an earlier one read: a second
 * punch-in stops the shift the first one started. The request's loaders and identity map would
 * answer the later fields with the values from before (issue 21, item 3), so around each mutation
 * root field the request forgets its reads: before the field runs (the fields of the previous
 * answer read the old state), and again once it has run (its own answer must show its change).
 *
 * One place for every mutation, present and future, whatever its arguments or payload: no resolver
 * needs to know. Wraps the resolvers in place; call it before anything copies the schema (the
 * graphql-jit gateway does).
 */
export function forgetReadsAroundMutationFields(schema: GraphQLSchema): GraphQLSchema {
  const fields = schema.getMutationType()?.getFields() ?? {};
  for (const field of Object.values(fields)) {
    const resolve = field.resolve ?? defaultFieldResolver;
    field.resolve = (source, args, context: RequestContext, info) => {
      forgetReads(context);
      let answer: unknown;
      try {
        answer = resolve(source, args, context, info);
      } catch (error) {
        forgetReads(context);
        throw error;
      }
      if (!(answer instanceof Promise)) {
        forgetReads(context);
        return answer;
      }
      return answer.finally(() => forgetReads(context));
    };
  }
  return schema;
}
