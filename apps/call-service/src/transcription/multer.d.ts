/** multer ships no types (profile-service declares its own the same way); only what is used here. */
declare module 'multer' {
  import type { RequestHandler } from 'express';

  namespace multer {
    interface StorageEngine {
      _handleFile(...args: unknown[]): void;
      _removeFile(...args: unknown[]): void;
    }
    interface Options {
      storage?: StorageEngine;
      limits?: {
        fieldNameSize?: number;
        fieldSize?: number;
        fields?: number;
        fileSize?: number;
        files?: number;
        parts?: number;
        headerPairs?: number;
      };
    }
    interface Multer {
      single(field: string): RequestHandler;
    }
    function memoryStorage(): StorageEngine;
  }
  function multer(options?: multer.Options): multer.Multer;
  export = multer;
}
