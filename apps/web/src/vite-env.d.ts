/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Gateway origin, e.g. https://api.example.com; the app adds /api itself. */
  readonly VITE_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
