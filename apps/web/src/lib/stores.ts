// Client-persisted state (spec section 3): the interface language ("lang") and the two token
// expiries ("token-storage"). Tokens themselves live only in HttpOnly cookies.
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { SESSION, STORAGE_KEYS } from '@parla/contract/constants';

interface LangState {
  currentLang: string;
  setLang: (lang: string) => void;
}

export const useLangStore = create<LangState>()(
  persist(
    (set) => ({
      currentLang: '',
      setLang: (currentLang) => set({ currentLang }),
    }),
    { name: STORAGE_KEYS.lang, storage: createJSONStorage(() => localStorage) },
  ),
);

interface TokenState {
  /** Epoch milliseconds, absent when signed out. */
  accessExpiration?: number | undefined;
  refreshExpiration?: number | undefined;
  setExpirations: (expirations: { accessExpiration?: string | number; refreshExpiration?: string | number }) => void;
  clear: () => void;
}

const toTime = (value: string | number | undefined) => (value === undefined ? undefined : new Date(value).getTime());

export const useTokenStore = create<TokenState>()(
  persist(
    (set) => ({
      setExpirations: ({ accessExpiration, refreshExpiration }) =>
        set((state) => ({
          accessExpiration: toTime(accessExpiration) ?? state.accessExpiration,
          refreshExpiration: toTime(refreshExpiration) ?? state.refreshExpiration,
        })),
      clear: () => set({ accessExpiration: undefined, refreshExpiration: undefined }),
    }),
    { name: STORAGE_KEYS.tokens, storage: createJSONStorage(() => localStorage) },
  ),
);

/** Still usable: more than the safety margin away. */
export const isFresh = (expiration: number | undefined, now = Date.now()) =>
  expiration !== undefined && expiration - now > SESSION.expiryMarginMs;

/** Signed in as far as the client can tell: the session can still be refreshed. */
export const isSignedIn = () => {
  const { accessExpiration, refreshExpiration } = useTokenStore.getState();
  return isFresh(accessExpiration) || isFresh(refreshExpiration);
};
