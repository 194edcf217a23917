import {
  GraphQLError,
  getNullableType,
  isInputObjectType,
  isNonNullType,
  typeFromAST,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from 'graphql';
import { REQUIRED, ValidationError, type EntityName, type FieldError } from '../core/errors';

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
 */
export function missingRequiredFields(
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[],
  variables: Readonly<Record<string, unknown>>,
): GraphQLError | undefined {
  for (const definition of definitions) {
    const type = getNullableType(typeFromAST(schema, definition.type));
    if (!isInputObjectType(type)) continue;
    const entity = CREATED_ENTITIES[type.name];
    const value = variables[definition.variable.name.value];
    if (!entity || !isPlainObject(value)) continue;
    const errors: FieldError[] = [];
    for (const field of Object.values(type.getFields())) {
      if (!isNonNullType(field.type) || field.defaultValue !== undefined) continue;
      if (value[field.name] === undefined) errors.push({ field: field.name, message: REQUIRED });
      else if (value[field.name] === null)
        errors.push({ field: field.name, message: "can't be blank" });
    }
    if (errors.length > 0) {
      const error = new ValidationError(entity, errors);
      return new GraphQLError(error.message, { originalError: error });
    }
  }
  return undefined;
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
