// Calls of the sign-in, sign-up, activation and password-reset screens.
import type {
  LoginRequest,
  LoginResponse,
  PasswordResetConfirmRequest,
  RegisterRequest,
} from '@parla/contract/accounts';
import type { Detail } from '@parla/contract/errors';
import { call, endpoint } from '../../lib/api';
import { useTokenStore } from '../../lib/stores';

export async function login(body: LoginRequest) {
  const answer = await call<LoginResponse>(endpoint('POST', '/api/accounts/login/', { body }));
  if (answer) useTokenStore.getState().setExpirations(answer);
  return answer;
}

export const register = (body: RegisterRequest) => call<Detail>(endpoint('POST', '/api/accounts/registration/', { body }));

export const resendActivation = (email: string) =>
  call<Detail>(endpoint('POST', '/api/accounts/registration/resend-email/', { body: { email } }));

export const verifyEmail = (key: string) => call<Detail>(endpoint('POST', '/api/accounts/registration/verify-email/', { body: { key } }));

export const requestPasswordReset = (email: string) => call<Detail>(endpoint('POST', '/api/accounts/password/reset/', { body: { email } }));

export const confirmPasswordReset = (body: PasswordResetConfirmRequest) =>
  call<Detail>(endpoint('POST', '/api/accounts/password/reset/confirm/', { body }));
