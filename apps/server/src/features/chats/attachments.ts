// What is done with an upload before it is kept (issue "reach and find"): checked by its content,
// never by its name or declared type. A picture (JPEG, PNG, WebP, GIF, AVIF, TIFF) is decoded and
// re-encoded as WebP, at most 2,560 px a side, with a 480 px thumbnail: what is served is what
// sharp wrote, never the bytes sent (no hidden payload, no metadata such as GPS). One over
// LIMITS.attachmentMaxPixels, or over what its file size allows (a decompression bomb: see
// platform/images.ts), is refused before it is decoded; decoding waits its turn in the pictures' queue.
// Programs and scripts are refused; any other file is kept as sent and served only as a download.
import sharp from 'sharp';
import { LIMITS } from '@parla/contract/constants';
import { ApiError, fieldError } from '../../platform/errors';
import { allowedPixels, readHeader } from '../../platform/images';

/** Runs a picture's decoding (of so many pixels) in its turn, charged to the uploader. */
export type Decode = <T>(pixels: number, work: () => Promise<T>) => Promise<T>;

export interface ProcessedUpload {
  kind: 'image' | 'file';
  name: string;
  contentType: string;
  file: Buffer;
  thumbnail: Buffer | null;
  width: number | null;
  height: number | null;
}

const PICTURES = ['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff'];

/** Magic numbers of programs and scripts: Windows (MZ), ELF, Mach-O (thin and fat), a `#!` script. */
const EXECUTABLE_MAGIC = [[0x4d, 0x5a], [0x7f, 0x45, 0x4c, 0x46], [0xfe, 0xed, 0xfa, 0xce], [0xfe, 0xed, 0xfa, 0xcf], [0xce, 0xfa, 0xed, 0xfe], [0xcf, 0xfa, 0xed, 0xfe], [0xca, 0xfe, 0xba, 0xbe], [0x23, 0x21]];
const startsWith = (data: Buffer, magic: number[]) => magic.every((byte, index) => data[index] === byte);

/** A file name fit to show and to send back in Content-Disposition: its last part, no control characters, at most 120 characters. */
export function cleanName(name: string | undefined, fallback: string): string {
  // eslint-disable-next-line no-control-regex
  const base = (name ?? '').split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069"]/g, '').trim();
  return (base || fallback).slice(-120);
}

/** A file name with another extension (a picture's download, re-encoded as WebP: "whiteboard.png" → "whiteboard.webp"). */
export const withExtension = (name: string, extension: string) => `${name.replace(/\.[^.]{1,10}$/, '') || 'picture'}.${extension}`;

export async function processUpload(data: Buffer, sentName: string | undefined, decode: Decode): Promise<ProcessedUpload> {
  const name = cleanName(sentName, 'file');
  const { format, pixels } = await readHeader(data);
  if (format && PICTURES.includes(format)) {
    const max = allowedPixels(data.length, LIMITS.attachmentMaxPixels);
    if (pixels > LIMITS.attachmentMaxPixels) throw fieldError('file', 'imageTooLarge', { max: LIMITS.attachmentMaxPixels / 1_000_000 }, 'image_too_large');
    if (pixels > max) throw fieldError('file', 'imageTooDense', { max: Math.floor(max / 1_000_000) }, 'image_too_large');
    try {
      return await decode(pixels, async () => {
        const picture = sharp(data, { limitInputPixels: max }).rotate();
        const { data: file, info } = await picture.clone().resize(2560, 2560, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 85 }).toBuffer({ resolveWithObject: true });
        const thumbnail = await picture.clone().resize(480, 480, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 75 }).toBuffer();
        // The name the person gave is kept (issue 37: "whiteboard.png" became "whiteboard.webp"
        // unannounced); only its download is named after the encoding.
        return { kind: 'image' as const, name, contentType: 'image/webp', file, thumbnail, width: info.width, height: info.height };
      });
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (/pixel limit/i.test(String((error as Error).message))) throw fieldError('file', 'imageTooDense', { max: Math.floor(max / 1_000_000) }, 'image_too_large');
      throw fieldError('file', 'attachmentInvalid', undefined, 'invalid_file');
    }
  }
  if (EXECUTABLE_MAGIC.some((magic) => startsWith(data, magic))) throw fieldError('file', 'attachmentInvalid', undefined, 'invalid_file');
  const contentType = startsWith(data, [0x25, 0x50, 0x44, 0x46]) ? 'application/pdf' : 'application/octet-stream';
  return { kind: 'file', name, contentType, file: data, thumbnail: null, width: null, height: null };
}
