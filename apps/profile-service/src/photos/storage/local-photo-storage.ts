import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { PhotoStorage } from './photo-storage';

/** Photo files in a folder on this machine (development, tests, single-host installs). */
export class LocalPhotoStorage implements PhotoStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The file of a key, refusing anything that would land outside the folder. */
  private fileOf(key: string): string {
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep)) throw new Error(`Invalid storage key: ${key}`);
    return file;
  }

  async put(key: string, body: Buffer, _contentType?: string): Promise<void> {
    const file = this.fileOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Written aside then renamed: a reader never sees half a file.
    const partial = `${file}.${randomUUID()}.part`;
    try {
      await writeFile(partial, body);
      await rename(partial, file);
    } catch (e) {
      await rm(partial, { force: true });
      throw e;
    }
  }

  async get(key: string): Promise<Readable | null> {
    const file = this.fileOf(key);
    try {
      if (!(await stat(file)).isFile()) return null;
    } catch {
      return null;
    }
    return createReadStream(file);
  }

  async delete(key: string): Promise<void> {
    const file = this.fileOf(key);
    await rm(file, { force: true });
    // The photo's folder goes with its last file (rmdir refuses a folder that still has some).
    await rmdir(path.dirname(file)).catch(() => undefined);
  }
}
