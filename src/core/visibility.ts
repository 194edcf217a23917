/**
 * Who sees a company or a project (modules/rule-forms/listed-visibility.ts applies it);
 * modules/common/graphql/enums.ts registers it as the GraphQL enum.
 */
export enum Visibility {
  PUBLIC = 'public',
  PRIVATE = 'private',
  CUSTOM = 'custom',
}
