/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Gateway origin, e.g. https://api.example.com; the app adds /admin and /api itself. */
  readonly VITE_API_URL?: string;
  /** The member app's origin, e.g. https://app.example.com (non-admins are sent there). */
  readonly VITE_MEMBER_WEB_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
