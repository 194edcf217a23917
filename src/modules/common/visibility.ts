/**
 * Who sees a company or a project (listed-visibility.ts applies it); graphql/enums.ts registers it
 * as the GraphQL enum.
 */
export enum Visibility {
  PUBLIC = 'public',
  PRIVATE = 'private',
  CUSTOM = 'custom',
}
