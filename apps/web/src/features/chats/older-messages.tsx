// The top of a chat's messages: the older pages load as it comes into view (or by its button, which
// also retries a page that failed); with none left it says the chat begins here.
import { useEffect, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { MorePages } from '../../components/load-more';
import { Button, Spinner } from '../../components/ui';

export function OlderMessages({ pages, scroller, empty }: { pages: MorePages; scroller: RefObject<HTMLDivElement | null>; empty: boolean }) {
  const { t } = useTranslation();
  const top = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = pages;
  useEffect(() => {
    const element = top.current;
    if (!element || !hasNextPage || isFetchingNextPage || isFetchNextPageError || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
      },
      { root: scroller.current, rootMargin: '200px 0px 0px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, scroller]);

  return (
    <div ref={top} className="message-top">
      {hasNextPage ? (
        isFetchingNextPage ? (
          <Spinner label={t('chats.loadingOlder')} />
        ) : (
          <Button variant="ghost" onClick={() => void fetchNextPage()}>
            {isFetchNextPageError ? t('chats.olderFailed') : t('chats.loadOlder')}
          </Button>
        )
      ) : !empty ? (
        <p className="muted chat-start">{t('chats.beginning')}</p>
      ) : null}
    </div>
  );
}
