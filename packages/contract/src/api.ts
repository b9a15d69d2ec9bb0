// The operations of the API: each one's path (as OpenAPI writes it), method, stable name
// (operationId), one-line summary, group, and what it needs (a session) or may answer beyond its
// body (no content, a rate limit, cookies). One table for both apps: the server's OpenAPI document
// takes its names, security and error responses from it, and clients can take their paths.

export const API_TAGS = {
  status: 'The server and its parts: health, what the translator and the voices can do.',
  accounts: 'Sign-up with e-mail activation, sign-in, sessions (cookies with an XSRF header, or bearer tokens), password reset and change, the profile.',
  chat: 'Group chats: every member reads every message in their own language and tone. People are added by invitation.',
  rooms: 'Live rooms: each utterance is transcribed, translated for every listener and spoken in their voice; the transcript stays editable.',
  notifications: 'Web Push notifications while the app is closed: the account’s switch and the devices that receive them.',
} as const;
export type ApiTag = keyof typeof API_TAGS;

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiOperation {
  method: ApiMethod;
  /** The path as OpenAPI writes it: `/api/chat/{groupChatId}/messages/`. */
  path: string;
  summary: string;
  tag: ApiTag;
  /** Signed in only: a bearer token, or the session cookie (with the X-XSRF-TOKEN header on writes). */
  session: boolean;
  /** Answers 204 No Content on success. */
  noContent?: true;
  /** Answers 401 for a token it was given (public operations that take a token). */
  checksToken?: true;
  /** Has a rate limit of its own (beyond every signed-in write's): may answer 429. */
  limited?: true;
  /** Sets or clears the session cookies. */
  setsCookies?: true;
}

const op = (method: ApiMethod, path: string, tag: ApiTag, summary: string, extra: Partial<ApiOperation> = {}): ApiOperation => ({
  method,
  path,
  tag,
  summary,
  session: true,
  ...extra,
});
const open = { session: false } as const;
const none = { noContent: true } as const;
/** Public, and counted per address (RATE_LIMIT_PUBLIC). */
const publicRead = { session: false, limited: true } as const;

export const API = {
  getStatus: op('GET', '/api/status/', 'status', 'The state of the server: database, live pushes, translation and speech', publicRead),
  getTranslationAbilities: op('GET', '/api/translation/', 'status', 'What the translator can do: the languages each language reaches, and whether it writes tones', publicRead),
  listTones: op('GET', '/api/speech/tones/', 'status', 'The tones a reader may choose, with their labels in the request’s language', publicRead),

  login: op('POST', '/api/accounts/login/', 'accounts', 'Sign in: tokens in the body and in HttpOnly cookies', { ...open, limited: true, setsCookies: true }),
  logoutByGet: op('GET', '/api/accounts/logout/', 'accounts', 'Sign out (the spec’s GET form)', { ...publicRead, setsCookies: true }),
  logout: op('POST', '/api/accounts/logout/', 'accounts', 'Sign out: the session (refresh token family) ends', { ...publicRead, setsCookies: true }),
  register: op('POST', '/api/accounts/registration/', 'accounts', 'Register; an activation link is e-mailed (the same answer for an address already taken)', { ...open, limited: true }),
  resendActivation: op('POST', '/api/accounts/registration/resend-email/', 'accounts', 'E-mail the activation link again', { ...open, limited: true }),
  verifyEmail: op('POST', '/api/accounts/registration/verify-email/', 'accounts', 'Activate the account with the key from the e-mail', open),
  refreshToken: op('POST', '/api/accounts/token/refresh/', 'accounts', 'Rotate the refresh token (from the body or the cookie) for a new access token', { ...open, checksToken: true, setsCookies: true }),
  verifyToken: op('POST', '/api/accounts/token/verify/', 'accounts', 'Check that a token is valid and its session active', { ...open, checksToken: true }),
  changePassword: op('POST', '/api/accounts/password/change/', 'accounts', 'Change the password (the current one needed unless signed in within 5 minutes); other sessions end', { limited: true }),
  requestPasswordReset: op('POST', '/api/accounts/password/reset/', 'accounts', 'E-mail a password reset link (the same answer for an unknown address)', { ...open, limited: true }),
  confirmPasswordReset: op('POST', '/api/accounts/password/reset/confirm/', 'accounts', 'Set a new password with the reset link’s uid and token; every session ends', open),
  getUser: op('GET', '/api/accounts/user/', 'accounts', 'The signed-in user'),
  replaceUser: op('PUT', '/api/accounts/user/', 'accounts', 'Set the full name and the avatar (JSON, or a form with the image file)'),
  updateUser: op('PATCH', '/api/accounts/user/', 'accounts', 'Change the full name or the avatar (JSON, or a form with the image file)'),
  getPrivacy: op('GET', '/api/accounts/privacy/', 'accounts', 'What others see of the user: read receipts, presence'),
  updatePrivacy: op('PATCH', '/api/accounts/privacy/', 'accounts', 'Share or hide read receipts (off: see nobody’s) and presence'),

  listRooms: op('GET', '/api/rooms/', 'rooms', 'The user’s rooms: invitations first, then the most recently active'),
  createRoom: op('POST', '/api/rooms/', 'rooms', 'Create a room; its creator is its OWNER', { limited: true }),
  getRoom: op('GET', '/api/rooms/{id}/', 'rooms', 'A room, with the reader’s role and state'),
  replaceRoom: op('PUT', '/api/rooms/{id}/', 'rooms', 'Set a room’s title, description, languages and domain (OWNER)'),
  updateRoom: op('PATCH', '/api/rooms/{id}/', 'rooms', 'Change a room’s title, description, languages or domain (OWNER)'),
  deleteRoom: op('DELETE', '/api/rooms/{id}/', 'rooms', 'Delete a room, its transcript and recordings (OWNER)', none),
  setRoomState: op('PUT', '/api/rooms/{id}/state/', 'rooms', 'Start, end or reopen the room’s call (OWNER; allowed changes only)'),
  updateRoomState: op('PATCH', '/api/rooms/{id}/state/', 'rooms', 'Start, end or reopen the room’s call (OWNER; allowed changes only)'),
  getOwnParticipation: op('GET', '/api/rooms/{roomId}/participant/', 'rooms', 'The reader’s participation: alias, language, voice, tone, and a LiveKit token while Live'),
  replaceOwnParticipation: op('PUT', '/api/rooms/{roomId}/participant/', 'rooms', 'Set how the reader is shown and listens'),
  updateOwnParticipation: op('PATCH', '/api/rooms/{roomId}/participant/', 'rooms', 'Change how the reader is shown or listens'),
  leaveRoom: op('DELETE', '/api/rooms/{roomId}/participant/', 'rooms', 'Leave the room, or decline its invitation', none),
  acceptRoomInvitation: op('POST', '/api/rooms/{roomId}/participant/accept/', 'rooms', 'Accept the invitation to the room'),
  listParticipants: op('GET', '/api/rooms/{roomId}/participants/', 'rooms', 'The room’s participants and invited people, searchable'),
  inviteParticipant: op('POST', '/api/rooms/{roomId}/participants/', 'rooms', 'Invite someone by e-mail address (OWNER)', { limited: true }),
  removeParticipants: op('POST', '/api/rooms/{roomId}/participants/multi_delete/', 'rooms', 'Remove several participants, all or none (OWNER)', none),
  setParticipantRole: op('PUT', '/api/rooms/{roomId}/participants/{id}/', 'rooms', 'Set a participant’s role; making someone OWNER hands the room over (OWNER)'),
  updateParticipantRole: op('PATCH', '/api/rooms/{roomId}/participants/{id}/', 'rooms', 'Change a participant’s role; making someone OWNER hands the room over (OWNER)'),
  removeParticipant: op('DELETE', '/api/rooms/{roomId}/participants/{id}/', 'rooms', 'Remove a participant, or withdraw an invitation (OWNER)', none),
  listSegments: op('GET', '/api/rooms/{roomId}/segments/', 'rooms', 'The transcript, oldest first, as the reader hears it'),
  uploadSegment: op('POST', '/api/rooms/{roomId}/segments/', 'rooms', 'Upload one utterance (while Live): transcribed, translated and spoken for every listener', { limited: true }),
  getSegment: op('GET', '/api/rooms/{roomId}/segments/{id}/', 'rooms', 'One utterance as the reader hears it'),
  replaceSegment: op('PUT', '/api/rooms/{roomId}/segments/{id}/', 'rooms', 'Correct the transcript (speaker) or choose the reader’s tone for it', { limited: true }),
  updateSegment: op('PATCH', '/api/rooms/{roomId}/segments/{id}/', 'rooms', 'Correct the transcript (speaker) or choose the reader’s tone for it', { limited: true }),
  correctSegmentRendering: op('PUT', '/api/rooms/{roomId}/segments/{id}/rendering/', 'rooms', 'Correct one’s rendering of an utterance for everyone who hears it in the same language and tone', { limited: true }),
  restoreSegmentRendering: op('DELETE', '/api/rooms/{roomId}/segments/{id}/rendering/', 'rooms', 'Take a correction of one’s rendering back (or, as the owner, every listener’s): the machine’s text again', none),
  downloadTranscript: op('GET', '/api/rooms/{roomId}/transcript/', 'rooms', 'The whole transcript in the reader’s language, as text or SubRip subtitles', { limited: true }),
  getAudio: op('GET', '/api/rooms/{roomId}/audio/{name}', 'rooms', 'A recording or a voice of the room (participants only)'),

  listChats: op('GET', '/api/chat/', 'chat', 'The user’s chats by last activity; the first page starts with pending invitations'),
  getUnread: op('GET', '/api/chat/unread/', 'chat', 'What is new for the reader in all their chats: unread messages and the chats holding them'),
  searchMessages: op('GET', '/api/chat/search/', 'chat', 'Search the reader’s chats (or one) in their own language: renderings and originals', { limited: true }),
  createChat: op('POST', '/api/chat/', 'chat', 'Create a chat; its creator is its OWNER', { limited: true }),
  getChat: op('GET', '/api/chat/{id}/', 'chat', 'A chat, with the reader’s role and state'),
  replaceChat: op('PUT', '/api/chat/{id}/', 'chat', 'Set a chat’s title, description and languages (OWNER)'),
  updateChat: op('PATCH', '/api/chat/{id}/', 'chat', 'Change a chat’s title, description or languages (OWNER)'),
  deleteChat: op('DELETE', '/api/chat/{id}/', 'chat', 'Delete a chat and its messages (OWNER)', none),
  getOwnMembership: op('GET', '/api/chat/{groupChatId}/member/', 'chat', 'The reader’s membership: nickname, language, tone, last read message'),
  replaceOwnMembership: op('PUT', '/api/chat/{groupChatId}/member/', 'chat', 'Set how the reader is shown and reads'),
  updateOwnMembership: op('PATCH', '/api/chat/{groupChatId}/member/', 'chat', 'Change how the reader is shown or reads, or where they stopped reading'),
  leaveChat: op('DELETE', '/api/chat/{groupChatId}/member/', 'chat', 'Leave the chat, or decline its invitation', none),
  acceptChatInvitation: op('POST', '/api/chat/{groupChatId}/member/accept/', 'chat', 'Accept the invitation to the chat'),
  listMembers: op('GET', '/api/chat/{groupChatId}/members/', 'chat', 'The chat’s members and invited people, searchable'),
  inviteMember: op('POST', '/api/chat/{groupChatId}/members/', 'chat', 'Invite someone by e-mail address (OWNER, ADMIN)', { limited: true }),
  removeMembers: op('POST', '/api/chat/{groupChatId}/members/multi_delete/', 'chat', 'Remove several members, all or none (OWNER, ADMIN)', none),
  setMemberRole: op('PUT', '/api/chat/{groupChatId}/members/{id}/', 'chat', 'Set a member’s role; making someone OWNER hands the chat over (OWNER)'),
  updateMemberRole: op('PATCH', '/api/chat/{groupChatId}/members/{id}/', 'chat', 'Change a member’s role; making someone OWNER hands the chat over (OWNER)'),
  removeMember: op('DELETE', '/api/chat/{groupChatId}/members/{id}/', 'chat', 'Remove a member, or withdraw an invitation (OWNER, ADMIN)', none),
  listMessages: op('GET', '/api/chat/{groupChatId}/messages/', 'chat', 'Messages, newest first, each in the reader’s language and tone'),
  postMessage: op('POST', '/api/chat/{groupChatId}/messages/', 'chat', 'Post a message (once per clientId); it is translated for every reader', { limited: true }),
  getMessage: op('GET', '/api/chat/{groupChatId}/messages/{id}/', 'chat', 'One message in the reader’s language and tone'),
  replaceMessage: op('PUT', '/api/chat/{groupChatId}/messages/{id}/', 'chat', 'Edit one’s own message; it is translated again', { limited: true }),
  updateMessage: op('PATCH', '/api/chat/{groupChatId}/messages/{id}/', 'chat', 'Edit one’s own message; it is translated again', { limited: true }),
  deleteMessage: op('DELETE', '/api/chat/{groupChatId}/messages/{id}/', 'chat', 'Delete a message for everyone (its sender, or an OWNER or ADMIN)', none),
  uploadAttachment: op('POST', '/api/chat/{groupChatId}/attachments/', 'chat', 'Upload a picture or a file (multipart `file`) to attach to one’s next message', { limited: true }),
  getAttachment: op('GET', '/api/chat/{groupChatId}/attachments/{id}/{variant}', 'chat', 'An attached file, or a picture’s thumbnail (members only)'),
  listReactions: op('GET', '/api/chat/{groupChatId}/messages/{id}/reactions/', 'chat', 'A message’s emoji reactions and who gave them'),
  addReaction: op('POST', '/api/chat/{groupChatId}/messages/{id}/reactions/', 'chat', 'React to a message with an emoji (once per emoji and member)', { limited: true }),
  removeReaction: op('DELETE', '/api/chat/{groupChatId}/messages/{id}/reactions/', 'chat', 'Take one’s own reaction back (?emoji=)', none),
  listMessageVersions: op('GET', '/api/chat/{groupChatId}/messages/{id}/versions/', 'chat', 'The earlier texts of an edited message, each in the reader’s language and tone', { limited: true }),
  listPins: op('GET', '/api/chat/{groupChatId}/pins/', 'chat', 'The chat’s pinned messages in the reader’s language and tone, the latest pinned first'),
  pinMessage: op('PUT', '/api/chat/{groupChatId}/messages/{id}/pin/', 'chat', 'Pin a message to the chat for every member (OWNER, ADMIN)'),
  unpinMessage: op('DELETE', '/api/chat/{groupChatId}/messages/{id}/pin/', 'chat', 'Unpin a message (OWNER, ADMIN)', none),
  listReceipts: op('GET', '/api/chat/{groupChatId}/receipts/', 'chat', 'How far the other members read (“seen by”), for a reader who shares their own'),
  listPresence: op('GET', '/api/chat/{groupChatId}/presence/', 'chat', 'Who of the chat’s members is online, away or offline, and when they were last seen'),
  correctMessageRendering: op('PUT', '/api/chat/{groupChatId}/messages/{id}/rendering/', 'chat', 'Correct one’s rendering of a message for every member who reads in the same language and tone', { limited: true }),
  restoreMessageRendering: op('DELETE', '/api/chat/{groupChatId}/messages/{id}/rendering/', 'chat', 'Take a correction of one’s rendering back (or, as an owner or admin, every reader’s): the machine’s text again', none),

  getChatGlossary: op('GET', '/api/chat/{groupChatId}/glossary/', 'chat', 'The chat’s glossary: terms translation renders as required or keeps, and the names it protects'),
  addChatGlossaryEntry: op('POST', '/api/chat/{groupChatId}/glossary/', 'chat', 'Add a term to the chat’s glossary (OWNER, ADMIN)'),
  updateChatGlossaryEntry: op('PATCH', '/api/chat/{groupChatId}/glossary/{id}/', 'chat', 'Change a term of the chat’s glossary (OWNER, ADMIN)'),
  removeChatGlossaryEntry: op('DELETE', '/api/chat/{groupChatId}/glossary/{id}/', 'chat', 'Remove a term from the chat’s glossary (OWNER, ADMIN)', none),
  applyChatGlossary: op('POST', '/api/chat/{groupChatId}/glossary/apply/', 'chat', 'Translate the chat’s recent messages again with the glossary as it is now (OWNER, ADMIN)', { limited: true }),
  getRoomGlossary: op('GET', '/api/rooms/{roomId}/glossary/', 'rooms', 'The room’s glossary: terms translation renders as required or keeps, and the names it protects'),
  addRoomGlossaryEntry: op('POST', '/api/rooms/{roomId}/glossary/', 'rooms', 'Add a term to the room’s glossary (OWNER)'),
  updateRoomGlossaryEntry: op('PATCH', '/api/rooms/{roomId}/glossary/{id}/', 'rooms', 'Change a term of the room’s glossary (OWNER)'),
  removeRoomGlossaryEntry: op('DELETE', '/api/rooms/{roomId}/glossary/{id}/', 'rooms', 'Remove a term from the room’s glossary (OWNER)', none),
  applyRoomGlossary: op('POST', '/api/rooms/{roomId}/glossary/apply/', 'rooms', 'Translate the room’s recent utterances again with the glossary as it is now (OWNER)', { limited: true }),

  getNotificationSettings: op('GET', '/api/notifications/', 'notifications', 'The account’s notification switch, its subscribed devices and the key a device subscribes with'),
  updateNotificationSettings: op('PATCH', '/api/notifications/', 'notifications', 'Turn the account’s notifications on or off (every device)'),
  subscribePush: op('POST', '/api/notifications/subscriptions/', 'notifications', 'Register this browser’s push subscription (an https push service) for the account'),
  unsubscribePush: op('DELETE', '/api/notifications/subscriptions/{id}/', 'notifications', 'Stop notifications to one of the account’s devices', none),
} as const satisfies Record<string, ApiOperation>;

export type OperationId = keyof typeof API;

/** The operation served at `method path` (OpenAPI path), if any. */
export function operationAt(method: string, path: string): [OperationId, ApiOperation] | undefined {
  for (const [id, operation] of Object.entries(API) as [OperationId, ApiOperation][]) {
    if (operation.method === method.toUpperCase() && operation.path === path) return [id, operation];
  }
  return undefined;
}
