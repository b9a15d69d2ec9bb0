// Calls of the sign-in, sign-up, activation and password-reset screens.
import type {
  LoginRequest,
  LoginResponse,
  PasswordResetConfirmRequest,
  RegisterRequest,
} from '@parla/contract/accounts';
import type { Detail } from '@parla/contract/errors';
import { call } from '../../lib/api';
import { useTokenStore } from '../../lib/stores';

export async function login(body: LoginRequest) {
  const answer = await call<LoginResponse>({ method: 'POST', url: '/api/accounts/login/', data: body });
  if (answer) useTokenStore.getState().setExpirations(answer);
  return answer;
}

export const register = (body: RegisterRequest) => call<Detail>({ method: 'POST', url: '/api/accounts/registration/', data: body });

export const resendActivation = (email: string) =>
  call<Detail>({ method: 'POST', url: '/api/accounts/registration/resend-email/', data: { email } });

export const verifyEmail = (key: string) => call<Detail>({ method: 'POST', url: '/api/accounts/registration/verify-email/', data: { key } });

export const requestPasswordReset = (email: string) => call<Detail>({ method: 'POST', url: '/api/accounts/password/reset/', data: { email } });

export const confirmPasswordReset = (body: PasswordResetConfirmRequest) =>
  call<Detail>({ method: 'POST', url: '/api/accounts/password/reset/confirm/', data: body });
