/**
 * The fields the entities declare (`@Declared`: what filters, orders and is read under which
 * rule) and the GraphQL types built from them: the filter and order inputs, the enums, the
 * scalars, the `Node` interface and the one-of references. Imports core only. Other modules and
 * the layers above use nothing of it but what this file exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
export {
  assertQueryReadable,
  classChain,
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
  DeclaredInput,
  EntityFilter,
  EntityOrder,
  maskDeclaredFields,
  withDeclaredInputs,
  type OrderEnum,
} from './graphql/declared-types';
export { StaffType, Visibility } from './graphql/enums';
export { Node } from './graphql/node';
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
export { DateTimeISOResolver } from './graphql/scalars';

/** The module's place in the order of src/modules/index.ts; it adds no entities or migrations. */
export const COMMON_MODULE = {
  name: 'common',
} as const satisfies ModuleDefinition;
