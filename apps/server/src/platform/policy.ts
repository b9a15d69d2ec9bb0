// "May they?" answered from the contract's tables (role × action, packages/contract/src/policies.ts),
// which the web client reads too. A caller who is not a member never gets this far (their load is
// a 404); a member whose role does not allow the action gets a 403.
import { may, type PolicyTable } from '@parla/contract/policies';
import { ApiError } from './errors';

export const permissionDenied = () =>
  new ApiError(403, 'client_error', [{ code: 'permission_denied', message: 'permissionDenied', attr: null }]);

export function createPolicy<Role extends number, Action extends string>(table: PolicyTable<Role, Action>) {
  return {
    may: (role: Role, action: Action) => may(table, role, action),
    /** Throws a 403 unless `role` may do `action`. */
    require(role: Role, action: Action): void {
      if (!may(table, role, action)) throw permissionDenied();
    },
  };
}

/** Throws a 403 unless `allowed` (a rule of the contract that also looks at the target). */
export function requireThat(allowed: boolean): void {
  if (!allowed) throw permissionDenied();
}
