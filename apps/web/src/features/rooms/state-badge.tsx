// A room's state as a badge: "Not started", "Live" (with a pulsing dot), "Ended".
import { useTranslation } from 'react-i18next';
import { ROOM_STATE } from '@parla/contract/constants';
import type { Room } from '@parla/contract/rooms';
import { stateKey } from './controls';

/** "Not started", "Live" (with a dot), "Ended". */
export function StateBadge({ state }: { state: Room['state'] }) {
  const { t } = useTranslation();
  return (
    <span className={`state-badge state-${state}`}>
      {state === ROOM_STATE.LIVE && <span className="live-dot" aria-hidden="true" />}
      {t(stateKey(state))}
    </span>
  );
}
