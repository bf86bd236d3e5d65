import { Inject, Injectable } from '@nestjs/common';
import sharp, { type Metadata, type SharpOptions } from 'sharp';
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

/**
 * Turns an upload into the files that are stored: turned upright by its EXIF orientation, then
 * re-encoded as WebP at each display size (never upscaled). Re-encoding keeps no metadata at
 * all, so EXIF (camera, GPS position, …), XMP and comments are gone. Decoding is limited in
 * pixels so a small file cannot expand into gigabytes (a decompression bomb).
 */
@Injectable()
export class ImageProcessor {
  private readonly maxPixels: number;

  constructor(@Inject(ProfileEnv) env: Pick<ProfileEnv, 'PHOTO_MAX_INPUT_PIXELS'>) {
    this.maxPixels = env.PHOTO_MAX_INPUT_PIXELS;
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

    const upright = sharp(upload, options).rotate();
    try {
      const entries = await Promise.all(
        (Object.entries(PHOTO_SIZES) as [PhotoSize, number][]).map(async ([size, px]) => {
          const { data, info } = await upright
            .clone()
            .resize({ width: px, height: px, fit: 'inside', withoutEnlargement: true })
            .webp({ quality: WEBP_QUALITY })
            .toBuffer({ resolveWithObject: true });
          return [size, { body: data, width: info.width, height: info.height }] as const;
        }),
      );
      return Object.fromEntries(entries) as EncodedPhoto;
    } catch (e) {
      // A header that reads well over a body that does not decode (truncated, corrupt).
      if (PIXEL_LIMIT.test(String(e))) throw new ImageRejected('too-many-pixels');
      throw new ImageRejected('not-an-image');
    }
  }
}
