import {
  GraphQLError,
  getNullableType,
  isInputObjectType,
  isNonNullType,
  typeFromAST,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from 'graphql';
import { BLANK, REQUIRED, ValidationError, type EntityName, type FieldError } from '../core/errors';

/**
 * The create inputs with required fields that the legacy facade sends, and the entity each makes:
 * what its errors are about. (The webhook and OAuth inputs keep graphql-js's own wording.)
 */
const CREATED_ENTITIES: Readonly<Record<string, EntityName>> = {
  CreateActivityInput: 'Activity',
  CreateCompanyInput: 'Company',
  CreateProjectInput: 'Project',
  CreateStaffInput: 'Staff',
};

/**
 * Create inputs mark the fields the service requires as non-null. graphql-js refuses a variable
 * that lacks one with a coercion message of its own (`BAD_USER_INPUT`); this finds such fields
 * first and answers with the service's VALIDATION_FAILED naming each one, worded as the service
 * words it ("is required" when absent, "can't be blank" when null). So the legacy facade, whose
 * clients read these messages (`422 Project::ParamMissing`), and GraphQL clients see one wording.
 * A literal without a required field never gets here: validation refuses the document.
 *
 * Planned once per operation: the check answers undefined when no variable is a create input,
 * so other operations pay nothing per request.
 */
export function requiredFieldsCheck(
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[],
): ((variables: Readonly<Record<string, unknown>>) => GraphQLError | undefined) | undefined {
  const checks = definitions.flatMap((definition) => {
    const type = getNullableType(typeFromAST(schema, definition.type));
    const entity = isInputObjectType(type) ? CREATED_ENTITIES[type.name] : undefined;
    if (!entity || !isInputObjectType(type)) return [];
    const required = Object.values(type.getFields())
      .filter((field) => isNonNullType(field.type) && field.defaultValue === undefined)
      .map((field) => field.name);
    return [{ variable: definition.variable.name.value, entity, required }];
  });
  if (checks.length === 0) return undefined;
  return (variables) => {
    for (const { variable, entity, required } of checks) {
      const value = variables[variable];
      if (!isPlainObject(value)) continue;
      const errors: FieldError[] = required
        .filter((field) => value[field] == null)
        .map((field) => ({ field, message: value[field] === undefined ? REQUIRED : BLANK }));
      if (errors.length > 0) {
        const error = new ValidationError(entity, errors);
        return new GraphQLError(error.message, { originalError: error });
      }
    }
    return undefined;
  };
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
