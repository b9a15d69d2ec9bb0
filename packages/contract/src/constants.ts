// The spec's constants (sections 3, 4, 6 and 9): one copy, imported by server and web.

export const LANGUAGES = [
  'af', 'ar', 'az', 'be', 'bg', 'bs', 'ca', 'cs', 'cy', 'da', 'de', 'el', 'en', 'es', 'et',
  'fa', 'fi', 'fr', 'gl', 'he', 'hi', 'hr', 'hu', 'hy', 'id', 'is', 'it', 'ja', 'kk', 'kn',
  'ko', 'lt', 'lv', 'mi', 'mk', 'mr', 'ms', 'ne', 'nl', 'no', 'pl', 'pt', 'ro', 'ru', 'sk',
  'sl', 'sr', 'sv', 'sw', 'ta', 'th', 'tl', 'tr', 'uk', 'ur', 'vi', 'zh',
] as const;
export type Language = (typeof LANGUAGES)[number];

/** Interface languages written right to left. */
export const RTL_LANGUAGES: readonly Language[] = ['ar', 'fa', 'he', 'ur'];
export const FALLBACK_LANGUAGE: Language = 'en';

export const TONES = [
  'DEFAULT', 'ACADEMIC', 'APPRECIATIVE', 'ANALYTICAL', 'CASUAL', 'CHEERFUL', 'DESCRIPTIVE',
  'FORMAL', 'FRIENDLY', 'HUMOROUS', 'INFORMATIVE', 'INSPIRATIONAL', 'INTIMATE', 'PERSUASIVE',
  'SERIOUS',
] as const;
export type Tone = (typeof TONES)[number];

/** What each tone asks of the writer; DEFAULT keeps the sender's own register. */
export const TONE_MEANINGS: Readonly<Record<Tone, string>> = {
  DEFAULT: "keep the sender's own register",
  ACADEMIC: 'precise, scholarly',
  APPRECIATIVE: 'warm and thankful',
  ANALYTICAL: 'logical and exact',
  CASUAL: 'relaxed, everyday',
  CHEERFUL: 'upbeat and bright',
  DESCRIPTIVE: 'vivid and detailed',
  FORMAL: 'polite and formal (formal address where the language has it)',
  FRIENDLY: 'kind and approachable',
  HUMOROUS: 'light and witty, without changing the facts',
  INFORMATIVE: 'clear and factual',
  INSPIRATIONAL: 'encouraging and uplifting',
  INTIMATE: 'close and personal',
  PERSUASIVE: 'convincing',
  SERIOUS: 'earnest and sober',
};

export const DOMAINS = [
  'DEFAULT', 'ACCOUNTING', 'ART', 'AUTO', 'BUSINESS', 'EDUCATION', 'ENGINEERING',
  'ENTERTAINMENT', 'ENVIRONMENT', 'FASHION', 'FINANCE', 'FNB', 'GOVERNMENT', 'HEALTHCARE',
  'HOSPITALITY', 'IT', 'LAW', 'MANUFACTURING', 'MARKETING', 'MUSIC', 'NON_PROFIT', 'REAL_ESTATE',
  'RETAIL', 'SCIENCE', 'SPORTS', 'TRANSPORT', 'TRAVEL',
] as const;
export type Domain = (typeof DOMAINS)[number];

export const ROOM_ROLE = { OWNER: 1001, MEMBER: 1002 } as const;
export const ROOM_ROLES = [ROOM_ROLE.OWNER, ROOM_ROLE.MEMBER] as const;
export type RoomRole = (typeof ROOM_ROLES)[number];

export const CHAT_ROLE = { OWNER: 2001, ADMIN: 2002, MEMBER: 2003 } as const;
export const CHAT_ROLES = [CHAT_ROLE.OWNER, CHAT_ROLE.ADMIN, CHAT_ROLE.MEMBER] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

/**
 * Where a member (of a chat) or participant (of a room) stands: added people are `invited` until
 * they accept (they see the chat or room's name and nothing of its content), then `joined`.
 */
export const MEMBER_STATES = ['invited', 'joined'] as const;
export type MemberState = (typeof MEMBER_STATES)[number];

export const ROOM_STATE = { START: 3001, LIVE: 3002, END: 3003 } as const;
export const ROOM_STATES = [ROOM_STATE.START, ROOM_STATE.LIVE, ROOM_STATE.END] as const;
export type RoomState = (typeof ROOM_STATES)[number];

/** Allowed room state changes (product.md): start→live, live→end, end→live (reopen), start→end (cancel). */
export const ROOM_STATE_TRANSITIONS: Readonly<Record<RoomState, readonly RoomState[]>> = {
  [ROOM_STATE.START]: [ROOM_STATE.LIVE, ROOM_STATE.END],
  [ROOM_STATE.LIVE]: [ROOM_STATE.END],
  [ROOM_STATE.END]: [ROOM_STATE.LIVE],
};

export const LIMITS = {
  /** A glossary's entries (per chat or room), a term's length, and its renderings. */
  glossaryEntries: 200,
  glossaryTermMax: 100,
  /** "Apply to recent messages": the newest messages (utterances) looked at. */
  glossaryApplyRecent: 200,
  titleMin: 1,
  titleMax: 255,
  /** Client-side password bounds (spec section 5). */
  passwordMin: 1,
  passwordMax: 128,
  /** Server-side password minimum (product.md). */
  serverPasswordMin: 8,
  fullNameMax: 255,
  emailMax: 254,
  nickNameMax: 255,
  aliasMax: 255,
  descriptionMax: 10_000,
  messageMax: 4_000,
  /** A picture or file attached to a message; pictures are re-encoded and may not exceed 40 megapixels. */
  attachmentMaxBytes: 10 * 1024 * 1024,
  attachmentsPerMessage: 10,
  attachmentMaxPixels: 40_000_000,
  /** An utterance may arrive this long after it was said (a client's retries, a slow network) and keep its time. */
  segmentSpokenAgoMaxMs: 3_600_000,
  /** Distinct emoji on one message. */
  reactionsPerMessage: 20,
  /** Messages pinned in one chat at once. */
  pinsPerChat: 50,
  /** Earlier versions of an edited message shown (the newest). */
  versionsShown: 20,
  transcriptMax: 10_000,
  /** Ids are int4 in the database: 1..2^31-1. */
  idMax: 2_147_483_647,
  homeRecentRooms: 5,
  pageSizeDefault: 20,
  pageSizeMax: 100,
  /** A page of search results holds at most this many (each a whole message). */
  searchPageMax: 25,
  avatarMaxBytes: 5 * 1024 * 1024,
  avatarSize: 256,
  segmentAudioMaxBytes: 2 * 1024 * 1024,
  segmentAudioMaxSeconds: 30,
} as const;

/**
 * Calls without a media server (product.md, issue "a real call"): the participants of a Live room
 * connect to each other directly (a WebRTC mesh), signalled over the live connection. Every
 * participant sends their media to every other, so a mesh stays small.
 */
export const MESH = {
  /** People in one mesh call at most (each sends and receives video to and from the others). */
  maxPeers: 6,
  /** The largest session description (SDP) or ICE candidate a signal may carry, in characters. */
  sdpMax: 20_000,
  candidateMax: 2_000,
  /**
   * How long a participant whose live connection dropped keeps their place before the others are
   * told they left: a slow machine's signalling hiccup must not tear down connections that still
   * carry media (issue 37). Leaving, removal and ending are told at once.
   */
  rejoinGraceMs: 10_000,
} as const;

export const SESSION = {
  /** A token whose expiry is this close (or past) counts as expired. */
  expiryMarginMs: 5_000,
  accessLifetimeMs: 5 * 60_000,
  refreshLifetimeMs: 7 * 24 * 60 * 60_000,
  /** A password change without the current password needs a sign-in this recent. */
  recentSignInMs: 5 * 60_000,
} as const;

/** Names the client and server agree on. axios' defaults for the XSRF pair. */
export const COOKIES = {
  access: 'access_token',
  refresh: 'refresh_token',
  xsrf: 'XSRF-TOKEN',
  /**
   * Set by the web client while it holds the interface translations in its own cache (the
   * language, for as long as the cache keeps them): the server then does not preload them with
   * index.html, which would be a request for nothing.
   */
  translationsCached: 'translations_cached',
} as const;
export const XSRF_HEADER = 'X-XSRF-TOKEN';

export const STORAGE_KEYS = { lang: 'lang', tokens: 'token-storage' } as const;

export const TRANSLATION_NAMESPACES = ['translation', 'zod', 'form'] as const;

export const TOAST_AUTO_CLOSE_MS = 2000;

/** Live pushes: Socket.IO's `path` on the API's origin. */
export const LIVE_PATH = '/api/live/';

/**
 * Live interpreting (issue 33): a speaker's audio streamed while they speak, on a WebSocket of its
 * own at `path` (its `{roomId}` filled), authenticated by the session cookie like the live
 * connection. Binary messages are audio: 16 kHz mono signed 16-bit little-endian samples, at most
 * `frameMaxMs` each; text messages are JSON (speechStreamClientMessageSchema).
 */
export const SPEECH_STREAM = {
  path: '/api/rooms/{roomId}/speech/',
  sampleRate: 16_000,
  /** The longest frame (ms of audio in one binary message). */
  frameMaxMs: 500,
  /** Audio a speaker may send ahead of real time: the moment before speech was heard, a catch-up after a stall. */
  burstMs: 6_000,
  /** How much faster than real time audio may arrive on average (a slow network delivering in bursts). */
  rateFactor: 1.5,
  /** Listeners' partial captions are translated again at most this often per utterance. */
  partialEveryMs: 600,
  /** A recogniser this far behind the speaker is told to the room ("the room is N s behind"). */
  behindNoticeMs: 2_000,
} as const;
/** How long a `typing` event holds without a new one. */
export const TYPING_HOLD_MS = 4000;

/**
 * Presence: `online` while a live connection of the person is in use, `away` while every one of
 * them is idle or hidden (the client says so after `awayAfterMs` without input), `offline` once
 * the last one has been gone for `offlineGraceMs` (a reload or a short drop is not a departure).
 */
export const PRESENCE = {
  states: ['online', 'away', 'offline'] as const,
  awayAfterMs: 5 * 60_000,
  offlineGraceMs: 15_000,
} as const;
export type PresenceState = (typeof PRESENCE.states)[number];

/**
 * Read receipts and presence are pushed in batches: a chat's read markers (or presences) that
 * changed within one window go out together, the first at once, the window growing with the chat
 * (`batchMs` for every `membersPerBatch` joined members), so what one change costs stays linear in
 * the chat's size however many change at once.
 */
export const AWARENESS_BATCH = {
  batchMs: 1_000,
  membersPerBatch: 100,
} as const;
