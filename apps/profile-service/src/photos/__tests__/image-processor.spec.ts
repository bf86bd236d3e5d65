import sharp from 'sharp';
import { ImageProcessor, ImageRejected, sniffImageType } from '../image-processor';

jest.setTimeout(30_000);

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 10, g: 200, b: 90 } } });

describe('image processing', () => {
  it('sniffs JPEG, PNG and WebP from their first bytes only', async () => {
    expect(sniffImageType(await solid(8, 8).jpeg().toBuffer())).toBe('jpeg');
    expect(sniffImageType(await solid(8, 8).png().toBuffer())).toBe('png');
    expect(sniffImageType(await solid(8, 8).webp().toBuffer())).toBe('webp');
    expect(sniffImageType(await solid(8, 8).gif().toBuffer())).toBeNull();
    expect(sniffImageType(Buffer.from('GIF89a'))).toBeNull();
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });

  it('refuses an image that would decode to more pixels than allowed (decompression bomb)', async () => {
    const processor = new ImageProcessor({ PHOTO_MAX_INPUT_PIXELS: 1_000_000 });
    // 2000 × 2000 of one colour: a few kilobytes of PNG, 4 megapixels once decoded.
    const bomb = await solid(2000, 2000).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(100_000);
    await expect(processor.process(bomb)).rejects.toEqual(new ImageRejected('too-many-pixels'));
    await expect(processor.process(await solid(900, 900).png().toBuffer())).resolves.toMatchObject({
      large: { width: 900, height: 900 },
      medium: { width: 600, height: 600 },
      thumb: { width: 200, height: 200 },
    });
  });

  it('refuses what is not one of the three types, even if a decoder could read it', async () => {
    const processor = new ImageProcessor({ PHOTO_MAX_INPUT_PIXELS: 50_000_000 });
    await expect(processor.process(await solid(10, 10).tiff().toBuffer())).rejects.toEqual(
      new ImageRejected('not-an-image'),
    );
    await expect(processor.process(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).rejects.toEqual(
      new ImageRejected('not-an-image'),
    );
  });

  it('keeps libvips to one thread per image and no operation cache (bounded CPU and memory per upload)', () => {
    new ImageProcessor({ PHOTO_MAX_INPUT_PIXELS: 25_000_000 });
    expect(sharp.concurrency()).toBe(1);
    expect(sharp.cache()).toMatchObject({ memory: { max: 0 }, items: { max: 0 } });
  });

  it('writes WebP without any metadata, keeping transparency', async () => {
    const processor = new ImageProcessor({ PHOTO_MAX_INPUT_PIXELS: 50_000_000 });
    const withAlpha = await sharp({
      create: { width: 64, height: 32, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } },
    })
      .withExif({ IFD0: { Copyright: 'someone' } })
      .png()
      .toBuffer();
    const out = await processor.process(withAlpha);
    const meta = await sharp(out.large.body).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 64, height: 32, hasAlpha: true });
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
  });
});
