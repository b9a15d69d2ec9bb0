// The production build of the server: src/main.ts and everything it imports, compiled by esbuild
// into one ES module, dist/main.js (with its source map). npm packages stay outside the bundle and
// load from node_modules as in development; the contract (@parla/contract, TypeScript sources) is
// compiled in. Files the server reads at run time (migrations, locales, the web client's build)
// are found from the server's folder (src/platform/paths.ts), so the bundle reads the same ones.
// Type-checking is `npm run typecheck`'s job: esbuild only strips types.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

await build({
  absWorkingDir: root,
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'npm-packages-outside',
      setup(builder) {
        // A bare specifier (not ./ or ../) is a package or a Node built-in: left to Node, but ours.
        builder.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@parla/') ? undefined : { path: args.path, external: true }));
      },
    },
  ],
});
