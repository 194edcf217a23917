import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/request-context';
import { isOwner, type Viewer } from '../../core/viewer';
import { Visibility } from './enums';
import { TEST_FORM, WHERE_FORM, type RuleForm } from './rule-forms';

/**
 * Who sees a row that has a `visibility` (a company, a project): the owner every row; everyone
 * else PUBLIC rows, the rows they created (which survives a later change of their type), and
 * CUSTOM rows whose member list names them. A member list on a row that is not CUSTOM is ignored.
 * Rows the caller cannot see behave as if they did not exist (404), like rows of another account.
 */
function listedVisibility<C>(
  viewer: Viewer,
  form: RuleForm<C>,
  terms: { public: C; createdByViewer: C; listsViewer: () => Promise<C | null> },
): Promise<C> {
  if (isOwner(viewer)) return Promise.resolve(form.always());
  return form.anyOf(terms.public, terms.createdByViewer, terms.listsViewer);
}

/** The ids of the rows whose CUSTOM list names the viewer. */
export type ListedIds = () => Promise<number[]>;

export function listedVisibilityWhere(viewer: Viewer, listedIds: ListedIds): Promise<object> {
  return listedVisibility(viewer, WHERE_FORM, {
    public: { visibility: Visibility.PUBLIC },
    createdByViewer: { createdBy: viewer.id },
    listsViewer: async () => {
      const ids = await listedIds();
      return ids.length > 0 ? { visibility: Visibility.CUSTOM, id: { $in: ids } } : null;
    },
  });
}

export interface ListedRow {
  readonly id: number;
  readonly visibility: Visibility;
  readonly createdBy: { readonly id: number } | null;
}

export function isListedVisible(
  viewer: Viewer,
  row: ListedRow,
  listedIds: ListedIds,
): Promise<boolean> {
  return listedVisibility(viewer, TEST_FORM, {
    public: row.visibility === Visibility.PUBLIC,
    createdByViewer: row.createdBy?.id === viewer.id,
    listsViewer: async () =>
      row.visibility === Visibility.CUSTOM && (await listedIds()).includes(row.id),
  });
}

/**
 * Reads listed ids once per request (the loader `name`) for reads; afresh inside a transaction,
 * which may itself have changed the lists. Inside a transaction, `em` must be its EntityManager:
 * a query on another one would wait for a second connection while the transaction holds one (the
 * embedded database has only one).
 */
export async function listedIdsOnce(
  ctx: RequestContext,
  em: EntityManager,
  name: string,
  query: (em: EntityManager) => Promise<number[]>,
): Promise<number[]> {
  if (em.isInTransaction()) return query(em);
  return ctx.loaders.load<string, number[]>(name, 'viewer', async (keys) => {
    const ids = await query(em);
    return keys.map(() => ids);
  });
}
