/**
 * The GraphQL side of lists: the Relay connection, the page a selection asks for, the columns a
 * selection reads, and the cost of a plain list. The modules' graphql/ folders import it.
 */
export { listComplexity } from './complexity';
export { Connection } from './connection';
export { ReadsColumns } from './selected-columns';
export { pageRequest, selectedFields, selectedNodeFields } from './selection';
export {
  lookupOf,
  rootList,
  type CompiledList,
  type ListArgs,
  type ListRegistration,
} from './list-sources';
export {
  ComputedSql,
  ReferenceSql,
  RowsSql,
  sqlFormOf,
  type SqlForm,
  type SqlRow,
} from './sql-forms';
