// Avatars: checked by content (not name or declared type) and re-encoded to a square 256 px WebP,
// decoded in the pictures' queue within the uploader's budget (platform/images.ts).
import sharp from 'sharp';
import { AVATAR_FORMATS } from '@parla/contract/accounts';
import { LIMITS } from '@parla/contract/constants';
import { ApiError, fieldError } from '../../platform/errors';
import { allowedPixels, readHeader, type PictureDecoder } from '../../platform/images';

const MAX_PIXELS = 40_000_000;

export async function toAvatarWebp(upload: Buffer, userId: number, pictures: PictureDecoder): Promise<Buffer> {
  const { format, pixels } = await readHeader(upload);
  if (!format || !(AVATAR_FORMATS as readonly string[]).includes(format)) {
    throw fieldError('avatarImage', 'avatarInvalid', undefined, 'invalid_image');
  }
  const max = allowedPixels(upload.length, MAX_PIXELS);
  if (pixels > MAX_PIXELS) throw fieldError('avatarImage', 'imageTooLarge', { max: MAX_PIXELS / 1_000_000 }, 'image_too_large');
  if (pixels > max) throw fieldError('avatarImage', 'imageTooDense', { max: Math.floor(max / 1_000_000) }, 'image_too_large');
  try {
    return await pictures.decode(userId, pixels, () =>
      sharp(upload, { limitInputPixels: max }).rotate().resize(LIMITS.avatarSize, LIMITS.avatarSize, { fit: 'cover' }).webp({ quality: 82 }).toBuffer(),
    );
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw fieldError('avatarImage', 'avatarInvalid', undefined, 'invalid_image');
  }
}
