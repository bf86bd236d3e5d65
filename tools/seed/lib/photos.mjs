// Photo files of the demo population, stored the way profile-service stores an upload:
//
// - encoding: apps/profile-service/src/photos/image-processor.ts. The "upload" is the picture
//   rendered from SVG (an opaque RGB bitmap, what a PNG upload decodes to); it is turned upright
//   (`rotate()`) and decoded once at the largest display size, then each display size of
//   PHOTO_SIZES (longest side, `fit: inside`, never upscaled) is made from those pixels and
//   re-encoded as WebP (quality 82, no metadata).
// - storage: apps/profile-service/src/photos/storage/local-photo-storage.ts with the keys of
//   photos.service.ts: storage key `photos/<photoId>`, files `<PHOTO_DIR>/photos/<photoId>/<size>.webp`;
//   the row's `sizes` lists each size's pixels, its url is `/api/photos/files/<photoId>/large.webp`.
//
// Deleting a photo (PhotosService.remove) deletes the files under that photo's storage key. So
// every photo row gets its own folder, also when files are reused from a pool (large runs): the
// folder then holds hard links to the pool's files, and deleting one photo removes only its own
// links; the other photos keep theirs (copies are made where hard links are not possible).
import { copyFile, link, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { pictureSvg } from './artwork.mjs';
import { Rng } from './random.mjs';

/** libs/contracts PHOTO_SIZES: longest side in pixels of each stored size. */
export const PHOTO_SIZES = { large: 1200, medium: 600, thumb: 200 };
export const SIZE_NAMES = Object.keys(PHOTO_SIZES);
/** image-processor.ts: WebP quality and decoding limits (PHOTO_MAX_INPUT_PIXELS default). */
const WEBP_QUALITY = 82;
/** @type {import('sharp').SharpOptions} */
const SHARP_OPTIONS = { limitInputPixels: 25_000_000, failOn: 'error', pages: 1 };
/** The demo "camera": 4:5 portrait uploads. */
export const SOURCE_WIDTH = 640;
export const SOURCE_HEIGHT = 800;

export const storageKeyOf = (photoId) => `photos/${photoId}`;
export const fileKeyOf = (storageKey, size) => `${storageKey}/${size}.webp`;
export const photoFileUrl = (photoId, size = 'large') => `/api/photos/files/${photoId}/${size}.webp`;

/** The picture as an upload would decode: RGB pixels. `png: true` gives it as a PNG file instead. */
export async function renderUpload(kind, rng, { width = SOURCE_WIDTH, height = SOURCE_HEIGHT, png = false, presentation = null } = {}) {
  const svg = Buffer.from(pictureSvg(kind, rng, width, height, { presentation }));
  const image = sharp(svg).flatten({ background: '#ffffff' }).removeAlpha();
  if (png) return image.png().toBuffer();
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { data, raw: { width: info.width, height: info.height, channels: info.channels } };
}

/** What ImageProcessor.process makes of an upload: `{ size: { body, width, height } }`. */
export async function encodeLikeProfileService(upload) {
  const input = Buffer.isBuffer(upload) ? sharp(upload, SHARP_OPTIONS) : sharp(upload.data, { ...SHARP_OPTIONS, raw: upload.raw });
  /** @param {number} px @returns {import('sharp').ResizeOptions} */
  const fitInside = (px) => ({ width: px, height: px, fit: 'inside', withoutEnlargement: true });
  const largestFirst = Object.entries(PHOTO_SIZES).sort((a, b) => b[1] - a[1]);
  const pixels = await input.rotate().resize(fitInside(largestFirst[0][1])).raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = pixels.info;
  const encoded = {};
  for (const [size, px] of largestFirst) {
    const { data, info } = await sharp(pixels.data, { raw: { width, height, channels } })
      .resize(fitInside(px))
      .webp({ quality: WEBP_QUALITY })
      .toBuffer({ resolveWithObject: true });
    encoded[size] = { body: data, width: info.width, height: info.height };
  }
  return encoded;
}

/** The `sizes` column of an encoded photo. */
export function sizesOf(encoded) {
  return Object.fromEntries(SIZE_NAMES.map((s) => [s, { width: encoded[s].width, height: encoded[s].height }]));
}

/** Runs `job(item)` for every item with at most `limit` at a time. */
export async function forEachLimited(items, limit, job) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await job(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

async function writeFiles(dir, encoded) {
  await mkdir(dir, { recursive: true });
  await Promise.all(SIZE_NAMES.map((size) => writeFile(path.join(dir, `${size}.webp`), encoded[size].body)));
}

/** Draws and stores one photo of its own (small runs). Returns its `sizes`. */
export async function makeUniquePhoto(photoDir, seed, photo) {
  const upload = await renderUpload(photo.kind, new Rng('picture', seed, photo.id), { presentation: photo.presentation });
  const encoded = await encodeLikeProfileService(upload);
  await writeFiles(path.join(photoDir, storageKeyOf(photo.id)), encoded);
  return sizesOf(encoded);
}

/**
 * Pictures drawn once and shared (large runs): `size` pictures, the first half portraits (every
 * other one presenting feminine, the rest masculine), kept in a folder inside the photo folder
 * (hard links need the same file system) that `dispose` removes.
 */
export async function createPool(photoDir, seed, size, concurrency) {
  const dir = path.join(photoDir, `.seed-pool-${process.pid}`);
  const kinds = ['landscape', 'city', 'beach', 'abstract'];
  const images = Array.from({ length: size }, (_, i) => {
    const portrait = i < Math.ceil(size / 2);
    return {
      index: i,
      kind: portrait ? 'portrait' : kinds[i % kinds.length],
      presentation: portrait ? (i % 2 === 0 ? 'feminine' : 'masculine') : null,
      dir: path.join(dir, String(i)),
      sizes: null,
    };
  });
  await forEachLimited(images, concurrency, async (image) => {
    const rng = new Rng('pool', seed, image.index);
    const encoded = await encodeLikeProfileService(await renderUpload(image.kind, rng, { presentation: image.presentation }));
    await writeFiles(image.dir, encoded);
    image.sizes = sizesOf(encoded);
  });
  const portraits = images.filter((i) => i.kind === 'portrait');
  const scenes = images.filter((i) => i.kind !== 'portrait');
  const portraitsOf = {
    feminine: portraits.filter((i) => i.presentation === 'feminine'),
    masculine: portraits.filter((i) => i.presentation === 'masculine'),
  };
  let copies = 0;
  return {
    images,
    get copies() {
      return copies;
    },
    /**
     * The pool picture a photo shows (per photo id): a scene for scenes, a portrait for portraits,
     * presenting like the member when the pool has such portraits.
     */
    pick(seedValue, photo) {
      const alike = portraitsOf[photo.presentation] ?? [];
      const list = photo.kind !== 'portrait' && scenes.length ? scenes : alike.length ? alike : portraits;
      return list[new Rng('pool-pick', seedValue, photo.id).int(0, list.length - 1)];
    },
    /** Gives the photo its own folder holding links to (or copies of) the pool picture's files. */
    async place(photo, image) {
      const target = path.join(photoDir, storageKeyOf(photo.id));
      await mkdir(target, { recursive: true });
      for (const size of SIZE_NAMES) {
        const from = path.join(image.dir, `${size}.webp`);
        const to = path.join(target, `${size}.webp`);
        try {
          await link(from, to);
        } catch (e) {
          if (/** @type {NodeJS.ErrnoException} */ (e).code === 'EEXIST') {
            await rm(to, { force: true });
            await link(from, to).catch(() => copyFile(from, to));
          } else {
            // EXDEV, EPERM, EMLINK (too many links), ENOTSUP: a real copy.
            await copyFile(from, to);
            copies += 1;
          }
        }
      }
      return image.sizes;
    },
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
