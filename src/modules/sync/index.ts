/**
 * Incremental sync: the watermark and the deletions since a point (tombstones the sync migration's
 * triggers write), each shown to whoever could see the deleted object. Imports staff, companies,
 * projects and shifts policies. Other modules and the layers above use nothing of it but what this
 * file exports.
 */
export { SyncService } from './sync.service';
