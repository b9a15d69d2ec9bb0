// "Load more" under a paged list (chats, rooms, a transcript), written once: the next page loads
// when the end of the list comes into view, and the button does it by hand (or retries a page that
// failed).
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Spinner } from './ui';

/** What LoadMore needs of an infinite query. */
export interface MorePages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
}

export function LoadMore({ pages, label, loadingLabel }: { pages: MorePages; label: string; loadingLabel?: string }) {
  const { t } = useTranslation();
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage: hasMore, isFetchingNextPage: loading, isFetchNextPageError: failed } = pages;
  const more = useRef(pages.fetchNextPage);
  more.current = pages.fetchNextPage;
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasMore || failed || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && !loading) void more.current();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasMore, loading, failed]);
  if (!hasMore) return null;
  return (
    <div ref={sentinel} className="list-more">
      {loading ? (
        <Spinner label={loadingLabel ?? t('common.loading')} />
      ) : (
        <Button variant="secondary" onClick={() => void pages.fetchNextPage()}>
          {failed ? t('common.retry') : label}
        </Button>
      )}
    </div>
  );
}
