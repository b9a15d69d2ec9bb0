// The server's paths, taken from the contract's API table so that each one is written once.
import type { ApiOperation } from '@parla/contract/api';

/** The operation's path as Fastify writes it: `{groupChatId}` becomes `:groupChatId`. */
export const route = (operation: ApiOperation): string => operation.path.replace(/\{([^}]+)\}/g, ':$1');

/** Each path cut once into its text and its parameter names: `['/api/chat/', 'groupChatId', '/messages/']`. */
const pathParts = new Map<string, string[]>();
const partsOf = (path: string) => {
  let parts = pathParts.get(path);
  if (!parts) pathParts.set(path, (parts = path.split(/\{([^}]+)\}/)));
  return parts;
};

/** The operation's concrete path with its parameters filled in (for pagination links); a missing one throws. */
export function fillPath(operation: ApiOperation, params: Record<string, string | number>): string {
  const parts = partsOf(operation.path);
  let path = parts[0]!;
  for (let index = 1; index < parts.length; index += 2) {
    const name = parts[index]!;
    const value = params[name];
    if (value === undefined) throw new Error(`${operation.method} ${operation.path}: no value for {${name}}`);
    path += encodeURIComponent(String(value)) + parts[index + 1]!;
  }
  return path;
}
