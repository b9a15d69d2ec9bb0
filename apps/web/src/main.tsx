// Entry: translations first (nothing renders before them), then the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import { router } from './app/router';
import { Toasts } from './components/toasts';
import { initI18n } from './lib/i18n';
import { registerServiceWorker } from './lib/service-worker';
import { installZodMessages } from './lib/zod-i18n';
import './styles.css';

registerServiceWorker();
installZodMessages();
await initI18n();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
    <Toasts />
  </StrictMode>,
);
