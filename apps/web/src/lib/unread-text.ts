// How the unread badges are said (to screen readers, and as their tooltip).
/** "2 new, 1 mentions you", or "2 unread messages". */
export const unreadText = (t: (key: string, options?: Record<string, unknown>) => string, unread: number, mentions: number) =>
  mentions > 0 ? t('chats.unreadWithMentions', { unread: t('chats.unreadNew', { count: unread }), mentions: t('chats.mentionsYouCount', { count: mentions }) }) : t('chats.unread', { count: unread });
