/**
 * The GraphQL side of sync: `syncWatermark` and `deletions(since:)`. The schema assembly
 * (src/graphql/schema.ts) imports it, and so may another module's graphql/ folder that extends
 * these types; nothing else does.
 */
import { SyncResolver } from './sync.resolver';
import type { ResolverRegistration } from '../../../core/module-definition';
import type { SyncService } from '../sync.service';

/** Built once per schema from the services they use. */
export const SYNC_RESOLVERS: readonly ResolverRegistration<{ sync: SyncService }>[] = [
  [SyncResolver, (s) => new SyncResolver(s.sync)],
];
