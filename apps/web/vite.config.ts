import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

export default defineConfig({
  plugins: [
    react(),
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
        // The app shell and the interface translations work offline; the API never comes from cache.
        globPatterns: ['**/*.{js,css,html,svg,json,webmanifest}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/media\//],
      },
    }),
  ],
  build: { target: 'es2022' },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:8000', '/media': 'http://localhost:8000' },
  },
});
