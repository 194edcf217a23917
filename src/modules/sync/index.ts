/**
 * Incremental sync: the watermark and the deletions since a point (tombstones the sync migration's
 * triggers write), each shown to whoever could see the deleted object. Imports staff, companies,
 * projects and shifts policies. Other modules and the layers above use nothing of it but what this
 * file exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
export { SyncService } from './sync.service';

/** The module's place in the order of src/modules/index.ts; it adds no entities or migrations. */
export const SYNC_MODULE = {
  name: 'sync',
} as const satisfies ModuleDefinition;
