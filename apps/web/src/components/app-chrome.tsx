// Navigation chrome of the protected pages: home, chats, rooms, profile, language switch.
import { useEffect, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from '@tanstack/react-router';
import { ChatIcon, HomeIcon, RoomIcon, UserIcon } from './icons';
import { unreadQuery } from '../lib/queries';
import { setTitleUnread } from './document-title';
import { LanguageSelect } from './language-select';
import { unreadText } from '../lib/unread-text';

export function AppChrome({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  // What is new in the chats, on every signed-in page: on the Chats entry and in the tab's title.
  const summary = useQuery(unreadQuery).data;
  const unread = summary?.messages ?? 0;
  /** Of those, how many mention the reader: said with the count, and an "@" on the badge. */
  const mentions = summary?.mentions ?? 0;
  useEffect(() => {
    setTitleUnread(unread);
    return () => setTitleUnread(0);
  }, [unread]);
  const links = [
    { to: '/', label: t('nav.home'), icon: <HomeIcon />, exact: true },
    { to: '/chat', label: t('nav.chats'), icon: <ChatIcon />, exact: false },
    { to: '/room', label: t('nav.rooms'), icon: <RoomIcon />, exact: false },
    { to: '/user', label: t('nav.profile'), icon: <UserIcon />, exact: false },
  ] as const;
  return (
    <div className="chrome">
      <a href="#content" className="skip-link">
        {t('nav.skip')}
      </a>
      <header className="topbar">
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true">P</span>
          <span className="brand-name">Parla</span>
        </Link>
        <nav aria-label={t('nav.label')} className="nav">
          {links.map((link) => (
            <Link key={link.to} to={link.to} className="nav-link" activeProps={{ className: 'nav-link active', 'aria-current': 'page' }} activeOptions={{ exact: link.exact }}>
              {link.icon}
              <span>{link.label}</span>
              {link.to === '/chat' && unread > 0 && (
                // The new messages' count, and apart from it how many mention the reader: "@2" read as
                // two mentions when it meant two new, one mentioning (issue 37).
                <span className="nav-badges" title={unreadText(t, unread, mentions)}>
                  <span className="nav-badge" aria-hidden="true">
                    {unread > 99 ? '99+' : unread}
                  </span>
                  {mentions > 0 && (
                    <span className="nav-badge nav-badge-at" aria-hidden="true">
                      @{mentions > 99 ? '99+' : mentions}
                    </span>
                  )}
                  <span className="visually-hidden">{unreadText(t, unread, mentions)}</span>
                </span>
              )}
            </Link>
          ))}
        </nav>
        <LanguageSelect compact />
      </header>
      <div id="content" className="content" tabIndex={-1}>
        {children}
      </div>
    </div>
  );
}
