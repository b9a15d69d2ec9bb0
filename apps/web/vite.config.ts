import { createHash } from 'node:crypto';
import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { LAYOUTS, preloadPages } from './src/app/route-table';

const here = path.dirname(fileURLToPath(import.meta.url));

/** A hash of every locale file (names and contents): changes whenever one changes. */
function localesBuildId(dir = path.join(here, 'public/locales')): string {
  const hash = createHash('sha256');
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(path.join(dir, file))).update('\0');
  return hash.digest('hex').slice(0, 12);
}

/**
 * What the call's voice activity detection (@ricky0123/vad-web) loads at run time, by name, from
 * one folder (`/vad/`, src/features/rooms/call/use-speech-capture.ts): its audio worklet, the Silero v5
 * model, and onnxruntime-web's single-threaded WebAssembly build with its loader. Served from this
 * origin (the CSP allows scripts from 'self' only); fetched by the call page only.
 */
const require = createRequire(import.meta.url);
const vadDir = path.dirname(require.resolve('@ricky0123/vad-web/dist/real-time-vad.js'));
const ortDir = path.dirname(require.resolve('onnxruntime-web/wasm', { paths: [vadDir] }));
const VAD_ASSETS: Record<string, { file: string; type: string }> = {
  'vad.worklet.bundle.min.js': { file: path.join(vadDir, 'vad.worklet.bundle.min.js'), type: 'text/javascript' },
  'silero_vad_v5.onnx': { file: path.join(vadDir, 'silero_vad_v5.onnx'), type: 'application/octet-stream' },
  'ort-wasm-simd-threaded.mjs': { file: path.join(ortDir, 'ort-wasm-simd-threaded.mjs'), type: 'text/javascript' },
  'ort-wasm-simd-threaded.wasm': { file: path.join(ortDir, 'ort-wasm-simd-threaded.wasm'), type: 'application/wasm' },
};

/** Copies VAD_ASSETS into `vad/` of the build, and serves them there in development. */
function vadAssets(): Plugin {
  return {
    name: 'parla:vad-assets',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const name = /^\/vad\/([^/?#]+)/.exec(request.url ?? '')?.[1];
        const asset = name ? VAD_ASSETS[name] : undefined;
        if (!asset) return next();
        response.setHeader('Content-Type', asset.type);
        createReadStream(asset.file).pipe(response);
      });
    },
    generateBundle() {
      for (const [name, asset] of Object.entries(VAD_ASSETS)) this.emitFile({ type: 'asset', fileName: `vad/${name}`, source: readFileSync(asset.file) });
    },
  };
}

/**
 * The pages each address shows, from the route table (src/app/route-table.ts, which says what is
 * announced and why; src/app/router.tsx builds the routes from it): their modules' chunks and
 * styles, and the API answers they show first, for a Link header with index.html
 * (apps/server/src/platform/web-client.ts). A module that no chunk serves fails the build.
 */
const SHELL = LAYOUTS.protected.shell.module;
const ROUTE_PAGES = preloadPages();

/**
 * Which chunk a module goes to, beyond Rolldown's own splitting (which puts every module shared
 * by the entry and a page, or by two pages, in a small chunk of its own: 30 requests for /chat,
 * each a round trip on a phone's network, and the entry's own code behind them):
 * - `boot`: what the entry (src/main.tsx) imports statically, the code every page runs, and what
 *   both a public and a signed-in page use (the HTTP client, the language switch...);
 * - `forms`: the form library and our form helpers, for the pages and dialogs with forms;
 * - `signed-in`: what two or more signed-in pages (or the shell) use, loaded with the first of
 *   them and never by the public pages;
 * - `signed-in-forms`: of those, the modules that import the form library (a dialog's form, the
 *   languages field): apart, so a signed-in page without a form (home) loads neither them nor
 *   `forms`.
 * A page's own modules stay in its chunk.
 */
const ENTRY_MODULE = 'src/main.tsx';
const SIGNED_IN_ROOTS = [SHELL, ...ROUTE_PAGES.filter((route) => route.signedIn).flatMap((route) => route.modules.filter((module) => module !== SHELL))];
const PUBLIC_ROOTS = ROUTE_PAGES.filter((route) => !route.signedIn).flatMap((route) => route.modules);
const FORMS = /node_modules[\\/](react-hook-form|@hookform)[\\/]|src[\\/]lib[\\/]forms\.ts$/;

function chunkPlan(getModuleInfo: (id: string) => { importedIds: readonly string[] } | null) {
  const closure = (root: string) => {
    const seen = new Set<string>();
    const visit = (id: string) => {
      if (seen.has(id)) return;
      seen.add(id);
      for (const imported of getModuleInfo(id)?.importedIds ?? []) visit(imported);
    };
    visit(path.join(here, root));
    return seen;
  };
  const boot = closure(ENTRY_MODULE);
  const publicModules = new Set(PUBLIC_ROOTS.flatMap((root) => [...closure(root)]));
  const uses = new Map<string, number>();
  for (const root of SIGNED_IN_ROOTS) {
    // The shell comes with every signed-in page: what it uses counts as shared.
    for (const id of closure(root)) uses.set(id, (uses.get(id) ?? 0) + (root === SHELL ? 2 : 1));
  }
  /** Whether a module imports the form library, itself or through others. */
  const formsUsers = new Map<string, boolean>();
  const usesForms = (id: string): boolean => {
    const known = formsUsers.get(id);
    if (known !== undefined) return known;
    formsUsers.set(id, false);
    const found = FORMS.test(id) || (getModuleInfo(id)?.importedIds ?? []).some(usesForms);
    formsUsers.set(id, found);
    return found;
  };
  const signedIn = new Set<string>();
  const signedInForms = new Set<string>();
  for (const [id, count] of uses) {
    if (boot.has(id) || FORMS.test(id)) continue;
    if (publicModules.has(id)) boot.add(id);
    else if (count >= 2) (usesForms(id) ? signedInForms : signedIn).add(id);
  }
  return { boot, signedIn, signedInForms };
}

let plan: ReturnType<typeof chunkPlan> | undefined;

/** Writes `route-preloads.json`: for each of ROUTE_PAGES, the entry's chunks and those its pages need beyond them, and their styles. */
function routePreloads(): Plugin {
  let root = '';
  return {
    name: 'parla:route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    // After Vite's own: it drops the chunks that held only styles (and their imports).
    generateBundle: { order: 'post', handler(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      /** A chunk's file with its static imports' (recursively), and the styles of all of them. */
      const closure = (fileName: string, seen: Set<string>) => {
        if (seen.has(fileName)) return;
        seen.add(fileName);
        const chunk = byFile.get(fileName);
        for (const imported of chunk?.imports ?? []) closure(imported, seen);
      };
      const entryFiles = new Set<string>();
      for (const chunk of chunks) if (chunk.isEntry) closure(chunk.fileName, entryFiles);
      const styles = (files: Iterable<string>) => [...files].flatMap((file) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])]);
      const entryStyles = new Set(styles(entryFiles));
      const routes = ROUTE_PAGES.map(({ pattern, signedIn, modules, data }) => {
        const files = new Set<string>();
        for (const module of modules) {
          const chunk = chunks.find((item) => item.facadeModuleId && path.relative(root, item.facadeModuleId).split(path.sep).join('/') === module);
          if (!chunk) this.error(`route-preloads: no chunk serves ${module} (for ${pattern})`);
          closure(chunk.fileName, files);
        }
        // The chunks the entry imports first (index.html names them too, but only once its body
        // is read: the page's chunks announced in the header would otherwise go before them),
        // then the page's; the largest first within each, as the longest to arrive. Not the entry
        // itself (a few hundred bytes): only index.html names it, so a build that changes the
        // entry alone changes index.html alone (e2e/tests/service-worker-update.spec.ts).
        const bySize = (list: string[]) => list.sort((a, b) => (byFile.get(b)?.code.length ?? 0) - (byFile.get(a)?.code.length ?? 0));
        const entryImports = [...entryFiles].filter((file) => !byFile.get(file)?.isEntry);
        const scripts = [...bySize(entryImports), ...bySize([...files].filter((file) => !entryFiles.has(file)))];
        return { pattern, signedIn, scripts: scripts.map((file) => `/${file}`), styles: styles(files).filter((file) => !entryStyles.has(file)).map((file) => `/${file}`), ...(data ? { data } : {}) };
      });
      this.emitFile({ type: 'asset', fileName: 'route-preloads.json', source: JSON.stringify(routes) });
    } },
  };
}

/**
 * The app's one stylesheet (`build.cssCodeSplit: false`) written into index.html as a `<style>`
 * (the CSP allows inline styles, not scripts), and its file dropped: the page's first paint then
 * waits for the document alone, not for a stylesheet requested after it, and no page's chunk
 * waits for its own stylesheet either. About 12 KB compressed, revalidated with index.html.
 */
function inlineStylesheet(): Plugin {
  return {
    name: 'parla:inline-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        return html.replace(/<link rel="stylesheet"[^>]*? href="\/([^"]+\.css)"[^>]*>/g, (tag, fileName: string) => {
          const asset = bundle[fileName];
          if (asset?.type !== 'asset') return tag;
          delete bundle[fileName];
          return `<style>${String(asset.source).replace(/<\/style/gi, '<\\/style')}</style>`;
        });
      },
    },
  };
}

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|wasm|onnx)$/;
const brotli = promisify(brotliCompress);
const LARGE_FILE_BYTES = 1024 * 1024;
const gzipAsync = promisify(gzip);

/**
 * Writes `name.br` (brotli 11) and `name.gz` (gzip 9) next to every compressible file of the
 * build, for the server's @fastify/static `preCompressed`. Runs after vite-plugin-pwa has written
 * sw.js and workbox-*.js. A variant that is not smaller than the file is not written (the server
 * then sends the file as is).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'parla:precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const files = readdirSync(outDir, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
          .map((entry) => path.join(entry.parentPath, entry.name));
        let written = 0;
        await Promise.all(
          files.map(async (file) => {
            const content = await readFile(file);
            const variants: [string, Buffer][] = [
              [
                '.br',
                await brotli(content, {
                  params: {
                    // Quality 11 takes half a minute on onnxruntime's 14 MB wasm for 12 % less than 9.
                    [zlib.BROTLI_PARAM_QUALITY]: content.length > LARGE_FILE_BYTES ? 9 : zlib.BROTLI_MAX_QUALITY,
                    [zlib.BROTLI_PARAM_MODE]: /\.(wasm|onnx)$/.test(file) ? zlib.BROTLI_MODE_GENERIC : zlib.BROTLI_MODE_TEXT,
                    [zlib.BROTLI_PARAM_SIZE_HINT]: content.length,
                  },
                }),
              ],
              ['.gz', await gzipAsync(content, { level: zlib.Z_BEST_COMPRESSION })],
            ];
            for (const [extension, compressed] of variants) {
              if (compressed.length >= content.length) continue;
              await writeFile(file + extension, compressed);
              written++;
            }
          }),
        );
        this.info(`precompressed ${files.length} files into ${written} .br/.gz variants`);
      },
    },
  };
}

export default defineConfig({
  // Keys the translations' localStorage cache (src/lib/i18n.ts), so a deploy that changes a
  // locale file is not hidden by copies cached from the previous build.
  define: { __LOCALES_BUILD__: JSON.stringify(localesBuildId()) },
  plugins: [
    react(),
    vadAssets(),
    routePreloads(),
    inlineStylesheet(),
    VitePWA({
      filename: 'sw.js',
      registerType: 'autoUpdate',
      // Registered by src/lib/service-worker.ts (no workbox-window in the page).
      injectRegister: false,
      manifest: {
        name: 'Parla',
        short_name: 'Parla',
        description: 'Group chats and live rooms in your own language.',
        theme_color: '#1f4fd1',
        background_color: '#f5f6f8',
        display: 'standalone',
        icons: [{ src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' }],
      },
      workbox: {
        // A new worker takes over at once (the page then reloads, src/lib/service-worker.ts).
        // vite-plugin-pwa sets these two for 'autoUpdate' only when it injects its own
        // registration; without them sw.js waits for a SKIP_WAITING message nobody sends.
        skipWaiting: true,
        clientsClaim: true,
        // The app shell works offline; the API never comes from cache.
        globPatterns: ['**/*.{js,css,html,svg,json,webmanifest}'],
        // The call (LiveKit, speech detection and its model) needs the network anyway: it is
        // fetched when opened, not precached for every visitor. The 171 translation files
        // (~0.9 MB compressed) are not precached either: a visitor's own languages are kept as
        // they are fetched (network first, so a deploy's new keys arrive at once; the cache
        // offline), besides the app's own localStorage copy.
        globIgnores: ['**/node_modules/**', 'assets/call-page-*', 'vad/**', 'locales/**'],
        runtimeCaching: [
          {
            urlPattern: ({ url }) => url.pathname.startsWith('/locales/'),
            handler: 'NetworkFirst',
            options: { cacheName: 'parla-locales', networkTimeoutSeconds: 5, expiration: { maxEntries: 30 } },
          },
        ],
        // Web Push: showing notifications and opening what they are about (public/push-sw.js).
        importScripts: ['/push-sw.js'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/media\//],
      },
    }),
    precompress(),
  ],
  build: {
    target: 'es2022',
    // One stylesheet for the whole app, inlined into index.html (inlineStylesheet).
    cssCodeSplit: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: (id, ctx) => {
                plan ??= chunkPlan((module) => ctx.getModuleInfo(module));
                // Rolldown's runtime (its helpers for chunks) goes with the entry's code too.
                if (plan.boot.has(id) || id.includes('rolldown/runtime')) return 'boot';
                return plan.signedIn.has(id) ? 'signed-in' : plan.signedInForms.has(id) ? 'signed-in-forms' : null;
              },
              priority: 10,
              includeDependenciesRecursively: false,
            },
            {
              name: 'forms',
              test: FORMS,
              priority: 5,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    // ws: the live pushes (Socket.IO under /api/live/) upgrade to WebSocket through the proxy too.
    proxy: { '/api': { target: 'http://localhost:8000', ws: true }, '/media': 'http://localhost:8000' },
  },
});
