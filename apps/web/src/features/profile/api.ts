// Calls of the profile screen.
import type { PasswordChangeRequest, User } from '@parla/contract/accounts';
import type { Detail } from '@parla/contract/errors';
import { call } from '../../lib/api';
import { useTokenStore } from '../../lib/stores';

export function updateProfile(values: { fullName: string; avatar?: File | undefined }, onProgress: (fraction: number) => void) {
  const data = new FormData();
  data.append('fullName', values.fullName);
  if (values.avatar) data.append('avatarImage', values.avatar);
  return call<User>({
    method: 'PATCH',
    url: '/api/accounts/user/',
    data,
    onUploadProgress: onProgress,
  });
}

export const changePassword = (body: PasswordChangeRequest) =>
  call<Detail>({ method: 'POST', url: '/api/accounts/password/change/', data: body });

/** Ends the session on the server, then forgets it here whatever the answer. */
export async function signOut() {
  try {
    await call<Detail>({ method: 'POST', url: '/api/accounts/logout/' });
  } finally {
    useTokenStore.getState().clear();
  }
}
