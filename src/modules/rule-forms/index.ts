/**
 * The forms a policy rule takes (a where-object, an SQL condition, a test of a loaded row), and
 * the one rule written in them that companies and projects share: who sees a listed row (PUBLIC,
 * the creator, a CUSTOM member list). Imports core only. Other modules and the layers above use
 * nothing of it but what this file exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
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

/** The module's place in the order of src/modules/index.ts; it adds no entities or migrations. */
export const RULE_FORMS_MODULE = {
  name: 'rule-forms',
} as const satisfies ModuleDefinition;
