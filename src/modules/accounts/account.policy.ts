import { PermissionDeniedError } from '../../core/errors';
import { isOwner, type Viewer } from '../../core/viewer';

/**
 * Who changes the account's settings (its name, currency, the staff's view of money): the owner
 * alone. Who reads money is the account's other rule (money-visibility.ts).
 */
export function mayChangeAccount(viewer: Viewer): boolean {
  return isOwner(viewer);
}

export function assertMayChangeAccount(viewer: Viewer): void {
  if (!mayChangeAccount(viewer))
    throw new PermissionDeniedError(
      'update',
      'Account',
      'Update denied: only the owner may change the account',
    );
}
