/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Gateway origin, e.g. https://api.example.com; the app adds /api itself. */
  readonly VITE_API_URL?: string;
  /** The admin app's origin, e.g. https://admin.example.com (the /admin routes open it). */
  readonly VITE_ADMIN_WEB_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
