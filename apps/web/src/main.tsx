// Entry: translations first (nothing renders before them), the browser's data for dates, numbers
// and names in that language, then the app. Each step is a task of its own (yieldToBrowser): on a
// phone no step holds the main thread long enough to delay a tap (Lighthouse's total blocking
// time counts what each task takes beyond 50 ms).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import { router } from './app/router';
import { Toasts } from './components/toasts';
import { prepareFormats } from './lib/format';
import { i18n, initI18n } from './lib/i18n';
import { registerServiceWorker } from './lib/service-worker';
import { yieldToBrowser } from './lib/yield';
import { installZodMessages } from './lib/zod-i18n';
import './styles.css';

registerServiceWorker();
installZodMessages();
await initI18n();
await prepareFormats(i18n.language);
await yieldToBrowser();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
    <Toasts />
  </StrictMode>,
);
