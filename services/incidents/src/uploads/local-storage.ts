import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { link, mkdir, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { ObjectStorage, StoredObject } from './object-storage';

/** Objects as files under one directory. */
export class LocalStorage extends ObjectStorage {
  private readonly root: string;

  constructor(dir: string) {
    super();
    this.root = resolve(dir);
  }

  private path(key: string): string {
    const full = resolve(this.root, key);
    // keys are validated before they get here; this is the last line of defence against '..'
    if (!full.startsWith(this.root + sep)) throw new Error(`storage key escapes the upload directory: ${key}`);
    return full;
  }

  async putNew(key: string, body: Buffer): Promise<boolean> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    // write aside, then hard-link into place: link() fails if the name exists, so nothing is overwritten
    // and a reader never sees a half-written file
    const temp = `${target}.${randomBytes(6).toString('hex')}.part`;
    await writeFile(temp, body, { flag: 'wx' });
    try {
      await link(temp, target);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    const file = this.path(key);
    try {
      const s = await stat(file);
      if (!s.isFile()) return null;
      return { body: createReadStream(file), size: s.size };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async exists(key: string): Promise<boolean> {
    return stat(this.path(key)).then(
      (s) => s.isFile(),
      () => false,
    );
  }
}
