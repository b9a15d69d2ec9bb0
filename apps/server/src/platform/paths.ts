// Where the server's own files are (its migrations, locales, package.json) and the web client's
// build, found from the server's folder: the same whether this module runs from its source (tsx)
// or from the production build (dist/main.js, one file for every module).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest folder above `from` holding the server's package.json (`@parla/server`). */
function serverFolder(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === '@parla/server') return dir;
    if (path.dirname(dir) === dir) throw new Error(`the server's package.json was not found above ${from}`);
  }
}

/** apps/server */
export const serverRoot = serverFolder(path.dirname(fileURLToPath(import.meta.url)));

export const serverPaths = {
  packageJson: path.join(serverRoot, 'package.json'),
  migrations: path.join(serverRoot, 'drizzle'),
  locales: path.join(serverRoot, 'src', 'platform', 'locales'),
  /** apps/web/dist, unless WEB_DIST_DIR says otherwise. */
  webDist: path.resolve(serverRoot, '..', 'web', 'dist'),
};
