import {
  GraphQLError,
  Kind,
  getNamedType,
  isInputObjectType,
  type ASTVisitor,
  type ValidationContext,
  type VariableDefinitionNode,
} from 'graphql';

/**
 * A variable inside a `@oneOf` input literal (`project: { id: $id }`) must be declared non-null,
 * as the GraphQL specification's "All Variable Usages Are Allowed" says for OneOf Input Objects.
 * graphql-js 16 checks literals (both or neither field) but not this (17 does): without the rule a
 * null `$id` passes validation and fails at execution as an argument coercion error without a
 * code, which error formatting masks as an internal error. Same message as graphql-js 17.
 */
export function oneOfVariablesRule(context: ValidationContext): ASTVisitor {
  let definitions = new Map<string, VariableDefinitionNode>();
  return {
    OperationDefinition: {
      enter(operation) {
        definitions = new Map(
          (operation.variableDefinitions ?? []).map((d) => [d.variable.name.value, d]),
        );
      },
    },
    ObjectValue(node) {
      const type = getNamedType(context.getInputType());
      if (!isInputObjectType(type) || !type.isOneOf) return;
      for (const field of node.fields) {
        if (field.value.kind !== Kind.VARIABLE) continue;
        const name = field.value.name.value;
        const definition = definitions.get(name);
        if (definition && definition.type.kind !== Kind.NON_NULL_TYPE) {
          context.reportError(
            new GraphQLError(
              `Variable "$${name}" must be non-nullable to be used for OneOf Input Object "${type.name}".`,
              { nodes: [field.value] },
            ),
          );
        }
      }
    },
  };
}
