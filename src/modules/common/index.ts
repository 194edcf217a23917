export { loadById, primeById } from './entity-loaders';
export { StaffType, Visibility } from './graphql/enums';
export { listComplexity } from './graphql/complexity';
export { Connection, type ConnectionShape } from './graphql/connection';
export {
  BooleanFilter,
  DateTimeFilter,
  FloatFilter,
  IDFilter,
  IntFilter,
  StaffTypeFilter,
  StringFilter,
  VisibilityFilter,
} from './graphql/filter-inputs';
export {
  LocatorArgs,
  OrderInput,
  PageArgs,
  optionalLocator,
  type OrderSpec,
} from './graphql/list-args';
export { DateTimeISOResolver } from './graphql/scalars';
export { selectedFields } from './graphql/selection';
export { idempotentTransaction } from './idempotency';
export { isRowId, isUuid } from './identifiers';
export {
  childPage,
  compileFilter,
  findPage,
  type FilterFields,
  type PageRequest,
} from './list-query';
export {
  isListedVisible,
  listedIdsOnce,
  listedVisibilityWhere,
  type ListedRow,
} from './listed-visibility';
export { parseLocalTime } from './local-time';
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
  assertUuidFree,
  assignDefined,
  fields,
  findLocated,
  inTransaction,
  locatorWhere,
  lockRow,
  validate,
  type Locator,
} from './service-support';
export { canonicalTimeZone, isValidTimeZone, offsetSecondsAt, timeZoneField } from './time-zones';
export { findRows } from './unmanaged-rows';
