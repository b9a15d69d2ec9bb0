// The profile's notifications: the account's switch (every device), this browser as a device
// (asks the browser's permission, says plainly when it is blocked or impossible), and the sound
// a hidden tab plays for new messages.
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { NotificationSettings } from '@parla/contract/notifications';
import { Button, Card, CheckField } from '../../components/ui';
import { setSoundOn, soundOn } from '../../lib/chime';
import { notificationKeys } from '../../lib/query-keys';
import { notify } from '../../lib/toast';
import { deviceState, fetchSettings, turnOff, turnOn, updateSettings, type DeviceState } from './push-device';

const settingsKey = notificationKeys.settings();

export function NotificationsCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: settingsKey, queryFn: async () => (await fetchSettings()) ?? null, staleTime: 60_000 });
  const [device, setDevice] = useState<DeviceState | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [sound, setSound] = useState(soundOn);

  useEffect(() => {
    let live = true;
    void deviceState()
      .catch((): DeviceState => 'off')
      .then((state) => live && setDevice(state));
    return () => {
      live = false;
    };
  }, []);

  // The switch moves at once; it moves back if the server did not take the change.
  const [asked, setAsked] = useState<boolean | null>(null);
  const enabled = asked ?? settings.data?.enabled ?? true;
  const onAccount = async (next: boolean) => {
    setAsked(next);
    try {
      const saved = await updateSettings(next);
      if (!saved) return;
      queryClient.setQueryData<NotificationSettings>(settingsKey, saved);
      notify.success(t('profile.notificationsSaved'));
    } finally {
      setAsked(null);
    }
  };
  const onDevice = async () => {
    setBusy(true);
    setFailed(false);
    try {
      const next = device === 'on' ? await turnOff() : await turnOn(settings.data!.publicKey);
      setDevice(next);
      void queryClient.invalidateQueries({ queryKey: settingsKey });
    } catch {
      // The browser's push service refused or could not be reached.
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  const deviceText =
    device === 'unsupported'
      ? t('profile.notificationsUnsupported')
      : device === 'denied'
        ? t('profile.notificationsDenied')
        : device === 'on'
          ? t('profile.notificationsDeviceOn')
          : t('profile.notificationsDeviceOff');

  return (
    <Card className="notifications-card">
      <h2>{t('profile.notificationsTitle')}</h2>
      <p className="muted">{t('profile.notificationsIntro')}</p>
      <CheckField
        label={t('profile.notificationsAccount')}
        hint={enabled ? undefined : t('profile.notificationsAccountOff')}
        checked={enabled}
        disabled={!settings.data}
        onChange={(event) => void onAccount(event.target.checked)}
      />
      {device !== null && (
        <div className="device-state" role="status">
          <p>{deviceText}</p>
          {(device === 'on' || device === 'off') && (
            <Button variant="secondary" busy={busy} disabled={!settings.data} onClick={() => void onDevice()}>
              {device === 'on' ? t('profile.notificationsDisable') : t('profile.notificationsEnable')}
            </Button>
          )}
          {failed && (
            <p className="field-error" role="alert">
              {t('profile.notificationsFailed')}
            </p>
          )}
        </div>
      )}
      <CheckField
        label={t('profile.notificationsSound')}
        checked={sound}
        onChange={(event) => {
          setSound(event.target.checked);
          setSoundOn(event.target.checked);
        }}
      />
    </Card>
  );
}
