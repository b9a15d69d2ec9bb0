// Calls of the profile screen.
import type { PasswordChangeRequest, User } from '@parla/contract/accounts';
import type { Detail } from '@parla/contract/errors';
import type { Language } from '@parla/contract/constants';
import { call, endpoint } from '../../lib/api';
import { useTokenStore } from '../../lib/stores';
import { forgetDevice } from './push-device';

export function updateProfile(values: { fullName: string; avatar?: File | undefined }, onProgress: (fraction: number) => void) {
  const data = new FormData();
  data.append('fullName', values.fullName);
  if (values.avatar) data.append('avatarImage', values.avatar);
  return call<User>(endpoint('PATCH', '/api/accounts/user/', { body: data, onUploadProgress: onProgress }));
}

/** The language new chats and rooms are read in (null: the interface language). */
export const updateReadingLanguage = (readingLanguage: Language | null) => call<User>(endpoint('PATCH', '/api/accounts/user/', { body: { readingLanguage } }));

export const changePassword = (body: PasswordChangeRequest) =>
  call<Detail>(endpoint('POST', '/api/accounts/password/change/', { body }));

/** Ends the session on the server, then forgets it here whatever the answer. */
export async function signOut() {
  try {
    // This browser stops getting the account's notifications (the next person chooses anew).
    await forgetDevice();
    // No body: the refresh token travels in its cookie.
    await call<Detail>(endpoint('POST', '/api/accounts/logout/'));
  } finally {
    useTokenStore.getState().clear();
  }
}
