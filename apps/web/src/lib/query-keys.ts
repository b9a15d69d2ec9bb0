// The query keys of chats and rooms, in one small module: the feature screens, their live sync and
// the home page (which must stay light and imports no feature) all name the same cached data.
export const chatKeys = {
  all: ['chats'] as const,
  list: () => ['chats', 'list'] as const,
  /** What is unread over all chats (the navigation's count, the tab title). */
  unread: () => ['chats', 'unread'] as const,
  chat: (chatId: number) => ['chats', chatId] as const,
  detail: (chatId: number) => ['chats', chatId, 'detail'] as const,
  member: (chatId: number) => ['chats', chatId, 'member'] as const,
  messages: (chatId: number) => ['chats', chatId, 'messages'] as const,
  members: (chatId: number) => ['chats', chatId, 'members'] as const,
  membersPage: (chatId: number, query: { pageIndex: number; q: string }) => ['chats', chatId, 'members', query] as const,
  glossary: (chatId: number) => ['chats', chatId, 'glossary'] as const,
  /** The chat's pinned messages. */
  pins: (chatId: number) => ['chats', chatId, 'pins'] as const,
  /** How far the other members read ("seen by"). */
  receipts: (chatId: number) => ['chats', chatId, 'receipts'] as const,
  /** Who of the members is online, away or offline. */
  presence: (chatId: number) => ['chats', chatId, 'presence'] as const,
  /** A search of the reader's messages: in all their chats, or in one (then it goes with the chat's data). */
  search: (q: string, chatId?: number) => (chatId === undefined ? (['chats', 'search', q] as const) : (['chats', chatId, 'search', q] as const)),
};

export const roomKeys = {
  all: ['rooms'] as const,
  /** Every list of rooms (the home page's recent ones included). */
  lists: () => ['rooms', 'list'] as const,
  list: () => ['rooms', 'list', 'pages'] as const,
  /** The home page's recent rooms (a list: live sync keeps it with the others). */
  recent: (limit: number) => ['rooms', 'list', { limit }] as const,
  room: (roomId: number) => ['rooms', roomId] as const,
  detail: (roomId: number) => ['rooms', roomId, 'detail'] as const,
  participant: (roomId: number) => ['rooms', roomId, 'participant'] as const,
  participants: (roomId: number) => ['rooms', roomId, 'participants'] as const,
  participantsPage: (roomId: number, query: { pageIndex: number; q: string }) => ['rooms', roomId, 'participants', query] as const,
  segments: (roomId: number) => ['rooms', roomId, 'segments'] as const,
  glossary: (roomId: number) => ['rooms', roomId, 'glossary'] as const,
};

/** The account's notification switch and devices (the profile). */
export const notificationKeys = {
  settings: () => ['notifications'] as const,
};

/** What others see of the reader (read receipts, presence). */
export const privacyKeys = {
  settings: () => ['privacy'] as const,
};
