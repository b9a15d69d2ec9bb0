// The server's paths, taken from the contract's API table so that each one is written once.
import type { ApiOperation } from '@parla/contract/api';

/** The operation's path as Fastify writes it: `{groupChatId}` becomes `:groupChatId`. */
export const route = (operation: ApiOperation): string => operation.path.replace(/\{([^}]+)\}/g, ':$1');

/** The operation's concrete path with its parameters filled in (for pagination links); a missing one throws. */
export function fillPath(operation: ApiOperation, params: Record<string, string | number>): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operation.method} ${operation.path}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}
