import { Inject, Injectable } from '@nestjs/common';
import sharp, { type Metadata, type OutputInfo, type ResizeOptions, type SharpOptions } from 'sharp';
import { PHOTO_SIZES, type PhotoSize } from '@mate/contracts';
import { ProfileEnv } from '../profile.env';

export const ACCEPTED_IMAGE_TYPES = ['jpeg', 'png', 'webp'] as const;
export type AcceptedImageType = (typeof ACCEPTED_IMAGE_TYPES)[number];

/**
 * The real type of an upload, read from its first bytes (the file name and the declared type
 * are the sender's word, not evidence): JPEG, PNG or WebP, else null.
 */
export function sniffImageType(bytes: Buffer): AcceptedImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return 'png';
  }
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'webp';
  }
  return null;
}

/** Why an image was refused; the service turns it into the message of the upload's context. */
export class ImageRejected extends Error {
  constructor(readonly reason: 'not-an-image' | 'too-many-pixels') {
    super(reason);
  }
}

export interface EncodedSize {
  body: Buffer;
  width: number;
  height: number;
}
export type EncodedPhoto = Record<PhotoSize, EncodedSize>;

export const PHOTO_CONTENT_TYPE = 'image/webp';
const WEBP_QUALITY = 82;
/** How libvips words a refusal of `limitInputPixels`. */
const PIXEL_LIMIT = /pixel limit/i;

const SIZES_LARGEST_FIRST = (Object.entries(PHOTO_SIZES) as [PhotoSize, number][]).sort((a, b) => b[1] - a[1]);

/**
 * libvips settings for the whole process: one thread per image (PhotoProcessingQueue bounds how
 * many images run at once, so threads are bounded too) and no operation cache (an upload is
 * never processed twice, and the cache would keep decoded pixels alive).
 */
function configureSharp(): void {
  sharp.concurrency(1);
  sharp.cache(false);
}

/**
 * Turns an upload into the files that are stored: turned upright by its EXIF orientation, then
 * re-encoded as WebP at each display size (never upscaled). Re-encoding keeps no metadata at
 * all, so EXIF (camera, GPS position, …), XMP and comments are gone. Decoding is limited in
 * pixels so a small file cannot expand into gigabytes (a decompression bomb), and happens once:
 * the smaller sizes are made from the largest one's pixels, not by decoding the upload again.
 */
@Injectable()
export class ImageProcessor {
  private readonly maxPixels: number;

  constructor(@Inject(ProfileEnv) env: Pick<ProfileEnv, 'PHOTO_MAX_INPUT_PIXELS'>) {
    this.maxPixels = env.PHOTO_MAX_INPUT_PIXELS;
    configureSharp();
  }

  async process(upload: Buffer): Promise<EncodedPhoto> {
    const sniffed = sniffImageType(upload);
    if (!sniffed) throw new ImageRejected('not-an-image');
    const options: SharpOptions = { limitInputPixels: this.maxPixels, failOn: 'error', pages: 1 };

    let metadata: Metadata;
    try {
      metadata = await sharp(upload, options).metadata();
    } catch (e) {
      throw new ImageRejected(PIXEL_LIMIT.test(String(e)) ? 'too-many-pixels' : 'not-an-image');
    }
    if (metadata.format !== sniffed || !metadata.width || !metadata.height) {
      throw new ImageRejected('not-an-image');
    }
    if (metadata.width * metadata.height > this.maxPixels) throw new ImageRejected('too-many-pixels');

    let pixels: { data: Buffer; info: OutputInfo };
    try {
      pixels = await sharp(upload, options)
        .rotate()
        .resize(fitInside(SIZES_LARGEST_FIRST[0][1]))
        .raw()
        .toBuffer({ resolveWithObject: true });
    } catch (e) {
      // A header that reads well over a body that does not decode (truncated, corrupt).
      if (PIXEL_LIMIT.test(String(e))) throw new ImageRejected('too-many-pixels');
      throw new ImageRejected('not-an-image');
    }
    const { width, height, channels } = pixels.info;
    const encoded = {} as EncodedPhoto;
    // One after the other: the queue's slot stands for one image's work, on one thread.
    for (const [size, px] of SIZES_LARGEST_FIRST) {
      const { data, info } = await sharp(pixels.data, { raw: { width, height, channels } })
        .resize(fitInside(px))
        .webp({ quality: WEBP_QUALITY })
        .toBuffer({ resolveWithObject: true });
      encoded[size] = { body: data, width: info.width, height: info.height };
    }
    return encoded;
  }
}

const fitInside = (px: number): ResizeOptions => ({
  width: px,
  height: px,
  fit: 'inside',
  withoutEnlargement: true,
});
