import { PermissionDeniedError, type Act } from '../../core/errors';
import { isOwner, type Viewer } from '../../core/viewer';

/**
 * Who reads and manages the account's webhooks and their deliveries: the owner alone. A webhook
 * sends every shift of the account to its URL, whatever the shifts' visibility, so setting one up
 * is as much as reading every shift, and its secret signs what the account sends.
 */
export function mayManageWebhooks(viewer: Viewer): boolean {
  return isOwner(viewer);
}

export function assertMayManageWebhooks(viewer: Viewer, act: Act): void {
  if (!mayManageWebhooks(viewer))
    throw new PermissionDeniedError(
      act,
      'Webhook',
      `${act[0]!.toUpperCase()}${act.slice(1)} denied: only the account owner manages webhooks`,
    );
}
