// The signed-in user, shared by the home and profile screens.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@parla/contract/accounts';
import { endpoint, fetchOrThrow } from './api';

export const currentUserQuery = queryOptions({
  queryKey: ['accounts', 'user'],
  queryFn: () => fetchOrThrow<User>(endpoint('GET', '/api/accounts/user/')),
  staleTime: 60_000,
});

export const useCurrentUser = () => useQuery(currentUserQuery);
