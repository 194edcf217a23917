import { CASCADE_LIST_MAX } from '../shift-cascades';

/**
 * The descriptions of a payload's fields that name what a mutation's cascade changed or deleted,
 * written once: a list of at most CASCADE_LIST_MAX, and the count of them all.
 */
export const cascadeDescriptions = {
  deletedIds: (what: string) =>
    `The uuids of the ${what} deleted with it that the caller could see: evict them from a client cache. At most ${CASCADE_LIST_MAX}, oldest first; the count says how many there were (the rest: \`deletions(since:)\`, docs/sync.md, or read again).`,
  count: (what: string) => `How many ${what} the caller could see it changed or deleted in all.`,
  objects: (what: string) =>
    `The ${what}, as they are now, that the caller may see: at most ${CASCADE_LIST_MAX}, oldest first; the count says how many there were (read the rest again).`,
};
