import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
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
    // The photo's folder goes with its last file, and the member's folder with its last photo
    // (rmdir refuses a folder that still has some). Top-level folders (`photos/`) stay.
    for (let dir = path.dirname(file); path.dirname(dir) !== this.root && dir !== this.root; dir = path.dirname(dir)) {
      if (!(await rmdir(dir).then(() => true, () => false))) break;
    }
  }

  async deleteFolder(folder: string): Promise<number> {
    const dir = this.fileOf(folder);
    const files = await readdir(dir, { recursive: true, withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return [];
      throw e;
    });
    // Retried: an upload still writing into the folder makes one pass meet a folder not yet empty.
    await rm(dir, { recursive: true, force: true, maxRetries: 5 });
    return files.filter((entry) => entry.isFile()).length;
  }
}
