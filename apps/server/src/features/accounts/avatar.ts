// Avatars: checked by content (not name or declared type) and re-encoded to a square 256 px WebP.
import sharp from 'sharp';
import { AVATAR_FORMATS } from '@parla/contract/accounts';
import { LIMITS } from '@parla/contract/constants';
import { fieldError } from '../../core/errors';

export async function toAvatarWebp(upload: Buffer): Promise<Buffer> {
  let format: string | undefined;
  try {
    ({ format } = await sharp(upload, { limitInputPixels: 40_000_000 }).metadata());
  } catch {
    format = undefined;
  }
  if (!format || !(AVATAR_FORMATS as readonly string[]).includes(format)) {
    throw fieldError('avatarImage', 'avatarInvalid', undefined, 'invalid_image');
  }
  try {
    return await sharp(upload, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize(LIMITS.avatarSize, LIMITS.avatarSize, { fit: 'cover' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw fieldError('avatarImage', 'avatarInvalid', undefined, 'invalid_image');
  }
}
