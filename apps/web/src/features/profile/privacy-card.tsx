// What others see of the reader: read receipts ("seen by"; off, they see nobody's either) and
// presence (off, they always look offline, with no "last seen"). Each switch saves on change.
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Privacy } from '@parla/contract/accounts';
import { Card, CheckField } from '../../components/ui';
import { call, endpoint, fetchOrThrow } from '../../lib/api';
import { retryUnhandled } from '../../lib/queries';
import { chatKeys, privacyKeys } from '../../lib/query-keys';
import { notify } from '../../lib/toast';

const privacyKey = privacyKeys.settings();

export function PrivacyCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const privacy = useQuery({ queryKey: privacyKey, queryFn: () => fetchOrThrow<Privacy>(endpoint('GET', '/api/accounts/privacy/')), staleTime: 60_000, retry: retryUnhandled });
  // A switch moves at once; it moves back if the server did not take the change.
  const [asked, setAsked] = useState<Partial<Privacy>>({});
  const save = async (change: Partial<Privacy>) => {
    setAsked((before) => ({ ...before, ...change }));
    try {
      const saved = await call<Privacy>(endpoint('PATCH', '/api/accounts/privacy/', { body: change }));
      if (!saved) return;
      queryClient.setQueryData<Privacy>(privacyKey, saved);
      // Every chat's "seen by" follows (shown, or no longer).
      void queryClient.invalidateQueries({ queryKey: chatKeys.all, predicate: (query) => query.queryKey[2] === 'receipts' });
      notify.success(t('privacy.saved'));
    } finally {
      setAsked({});
    }
  };
  const readReceipts = asked.readReceipts ?? privacy.data?.readReceipts ?? true;
  const showPresence = asked.showPresence ?? privacy.data?.showPresence ?? true;
  return (
    <Card>
      <h2>{t('privacy.title')}</h2>
      <CheckField
        label={t('privacy.readReceipts')}
        hint={t('privacy.readReceiptsHint')}
        checked={readReceipts}
        disabled={privacy.data === undefined}
        onChange={(event) => void save({ readReceipts: event.target.checked })}
      />
      <CheckField
        label={t('privacy.showPresence')}
        hint={t('privacy.showPresenceHint')}
        checked={showPresence}
        disabled={privacy.data === undefined}
        onChange={(event) => void save({ showPresence: event.target.checked })}
      />
    </Card>
  );
}
