/**
 * The building blocks modules share: the enums, identifiers, list queries and pages, filters,
 * visibility of listed rows, transactions and validation, idempotency, time zones, and the GraphQL
 * building blocks (connections, paging and filter inputs, scalars, selection, complexity). Imports
 * core only. Other modules and the layers above use nothing of it but what this file exports.
 */
export { loadById, primeById } from './entity-loaders';
export {
  assertQueryReadable,
  Declared,
  DeclaredReference,
  declaredFields,
  declaredFilterPaths,
  declaredInputs,
  type DeclaredField,
  type FieldDeclaration,
  type ReadRule,
} from './field-declarations';
export {
  EntityFilter,
  EntityOrder,
  maskDeclaredFields,
  withDeclaredInputs,
  type OrderEnum,
} from './graphql/declared-types';
export { StaffType, Visibility } from './graphql/enums';
export { cascadeDescriptions } from './graphql/cascade-descriptions';
export { listComplexity } from './graphql/complexity';
export { Connection } from './graphql/connection';
export type { ConnectionShape, OrderSpec } from './list-shapes';
export { Node } from './graphql/node';
export { NODE_TABLES, nodeTypesOf, type NodeTypeName } from './node-ids';
export {
  BooleanFilter,
  DateTimeFilter,
  FILTER_DESCRIPTIONS,
  filterTypeDescription,
  FloatFilter,
  IDFilter,
  IntFilter,
  StaffTypeFilter,
  StringFilter,
  VisibilityFilter,
} from './graphql/filter-inputs';
export {
  COMMON_ORDER_VALUES,
  LocatorArgs,
  OrderInput,
  PageArgs,
  optionalLocator,
} from './graphql/list-args';
export {
  ActivityRef,
  CompanyRef,
  ONE_OF_INPUT_TYPES,
  ProjectRef,
  ShiftRef,
  StaffRef,
} from './graphql/refs';
export type { ResolverRegistration } from './graphql/resolver-registrations';
export { readAhead, ReadsAhead, type ReadAhead } from './read-ahead';
export { ReadsColumns } from './graphql/selected-columns';
export { DateTimeISOResolver } from './graphql/scalars';
export { pageRequest, selectedFields, selectedNodeFields } from './graphql/selection';
export { idempotentTransaction } from './idempotency';
export { isRowId, isUuid } from './identifiers';
export {
  childPage,
  type ChildList,
  compileFilter,
  declaredWhere,
  findPage,
  pageOfSortedList,
  type FilterFields,
  type PageRequest,
} from './list-query';
export {
  isListedSnapshotVisible,
  isListedVisible,
  listedIdsOnce,
  listedVisibilityWhere,
  type ListedRow,
  type ListedSnapshot,
} from './listed-visibility';
export {
  TEST_FORM,
  WHERE_FORM,
  sqlForm,
  whereAsSql,
  type RuleForm,
  type SqlCondition,
} from './rule-forms';
export { seededRandom } from './seeded-random';
export {
  CASCADE_LIST_MAX,
  type Cascaded,
  type DeletionCascade,
  type ShiftCascadeRoot,
  type ShiftCascades,
} from './shift-cascades';
export {
  assertUuidFree,
  assignDefined,
  fields,
  findByUuids,
  inOrderOf,
  findLocated,
  inTransaction,
  locatorWhere,
  lockRow,
  validate,
  type Locator,
} from './service-support';
export { canonicalTimeZone, isValidTimeZone, offsetSecondsAt, timeZoneField } from './zone-names';
export { findRows, intArray } from './unmanaged-rows';
