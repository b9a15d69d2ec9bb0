/// <reference types="vite/client" />

/** Hash of apps/web/public/locales/** set by vite.config.ts (`define`): keys the translation cache. */
declare const __LOCALES_BUILD__: string;
