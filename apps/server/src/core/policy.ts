// "May they?" answered from one table per feature (role × action), the same shape for chats and
// rooms. A caller who is not a member never gets this far (their load is a 404); a member whose
// role does not allow the action gets a 403.
import { ApiError } from './errors';

export type Policy<Role extends number, Action extends string> = Readonly<Record<Role, readonly Action[]>>;

export const permissionDenied = () =>
  new ApiError(403, 'client_error', [{ code: 'permission_denied', message: 'permissionDenied', attr: null }]);

export function createPolicy<Role extends number, Action extends string>(table: Policy<Role, Action>) {
  const allowed = new Map<Role, Set<Action>>(Object.entries(table).map(([role, actions]) => [Number(role) as Role, new Set(actions as Action[])]));
  const may = (role: Role, action: Action) => allowed.get(role)?.has(action) ?? false;
  return {
    may,
    /** Throws a 403 unless `role` may do `action`. */
    require(role: Role, action: Action): void {
      if (!may(role, action)) throw permissionDenied();
    },
  };
}
