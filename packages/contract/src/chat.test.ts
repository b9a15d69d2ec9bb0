import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import {
  chatCreateRequestSchema,
  chatListPageSchema,
  chatListQuerySchema,
  chatMemberAddRequestSchema,
  chatMemberDeleteQuerySchema,
  chatMemberPatchRequestSchema,
  chatMemberPutRequestSchema,
  chatMemberRoleRequestSchema,
  chatMemberSchema,
  chatMembersMultiDeleteRequestSchema,
  chatMembersPageSchema,
  chatMembersQuerySchema,
  chatMessageCreateRequestSchema,
  chatMessageSchema,
  chatMessagesPageSchema,
  chatMessagesQuerySchema,
  chatMessageUpdateRequestSchema,
  chatPatchRequestSchema,
  chatPutRequestSchema,
  groupChatSchema,
  manageChatMemberSchema,
} from './chat';
import { LIMITS } from './constants';

function issuePaths(schema: z.ZodMiniType, input: unknown): string[] {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.map(String).join('.'));
}

const groupChat = {
  id: 12,
  title: 'Family',
  description: null,
  languages: ['en', 'pt'],
  created: '2024-05-01T10:00:00Z',
  modified: '2024-05-02T08:30:00.512+02:00',
  chatRole: 2001,
  memberState: 'joined',
  muted: false,
  invitedBy: null,
};

const message = {
  id: 900,
  created: '2024-05-02T08:30:00Z',
  isMe: false,
  language: 'en',
  rawMessage: { id: 900, language: 'pt', content: 'Olá a todos', created: '2024-05-02T08:30:00Z' },
  sender: {
    id: 4,
    nickName: 'Avó',
    language: 'pt',
    chatRole: 2003,
    tone: 'DEFAULT',
    avatarImage: 'https://cdn.example.com/avatars/4.webp',
  },
  tone: 'FRIENDLY',
  content: 'Hello everyone',
  translation: 'done',
  edited: false,
  mentions: [],
  replyTo: null,
  reactions: [],
  attachments: [],
  correction: null,
  missedTerms: [],
  pinned: null,
};

describe('groupChatSchema', () => {
  it('parses a chat with and without description', () => {
    expect(groupChatSchema.parse(groupChat)).toEqual(groupChat);
    expect(groupChatSchema.parse({ ...groupChat, description: 'Us' }).description).toBe('Us');
  });

  it('rejects an unknown language and a non-datetime', () => {
    expect(issuePaths(groupChatSchema, { ...groupChat, languages: ['en', 'xx'] })).toEqual(['languages.1']);
    expect(issuePaths(groupChatSchema, { ...groupChat, modified: 'today' })).toEqual(['modified']);
  });
});

describe('chat create / put / patch', () => {
  it('create parses title, description and languages and trims the title', () => {
    expect(
      chatCreateRequestSchema.parse({ title: ' Family ', description: null, languages: ['en', 'pt'] }),
    ).toEqual({ title: 'Family', description: null, languages: ['en', 'pt'] });
  });

  it('create requires a title of 1 to 255 characters', () => {
    expect(issuePaths(chatCreateRequestSchema, { languages: ['en'] })).toEqual(['title']);
    expect(issuePaths(chatCreateRequestSchema, { title: '' })).toEqual(['title']);
    expect(issuePaths(chatCreateRequestSchema, { title: 't'.repeat(256) })).toEqual(['title']);
    expect(chatCreateRequestSchema.parse({ title: 't'.repeat(255) }).title).toHaveLength(255);
  });

  it('create rejects wrong types, unknown, empty and repeated languages', () => {
    expect(issuePaths(chatCreateRequestSchema, { title: 5 })).toEqual(['title']);
    expect(issuePaths(chatCreateRequestSchema, { title: 'A', languages: ['en', 'zz'] })).toEqual([
      'languages.1',
    ]);
    expect(issuePaths(chatCreateRequestSchema, { title: 'A', languages: [] })).toEqual(['languages']);
    expect(issuePaths(chatCreateRequestSchema, { title: 'A', languages: ['en', 'en'] })).toEqual([
      'languages',
    ]);
    expect(issuePaths(chatCreateRequestSchema, { title: 'A', languages: 'en' })).toEqual(['languages']);
  });

  it('put takes the full body like create', () => {
    expect(issuePaths(chatPutRequestSchema, { description: 'only' })).toEqual(['title']);
  });

  it('patch accepts any subset but still validates what is given', () => {
    expect(chatPatchRequestSchema.parse({})).toEqual({});
    expect(chatPatchRequestSchema.parse({ description: 'New' })).toEqual({ description: 'New' });
    expect(chatPatchRequestSchema.parse({ languages: ['fr'] })).toEqual({ languages: ['fr'] });
    expect(issuePaths(chatPatchRequestSchema, { title: 't'.repeat(256) })).toEqual(['title']);
  });
});

describe('chat list', () => {
  it('query coerces limit and defaults it to 20', () => {
    expect(chatListQuerySchema.parse({ limit: '20' })).toEqual({ limit: 20 });
    expect(chatListQuerySchema.parse({})).toEqual({ limit: 20 });
    expect(
      chatListQuerySchema.parse({ lastModified: '2024-05-02T08:30:00Z', limit: '5' }),
    ).toEqual({ lastModified: '2024-05-02T08:30:00Z', limit: 5 });
  });

  it('query rejects a bad lastModified and limits outside 1..100', () => {
    expect(issuePaths(chatListQuerySchema, { lastModified: 'yesterday' })).toEqual(['lastModified']);
    expect(issuePaths(chatListQuerySchema, { limit: '0' })).toEqual(['limit']);
    expect(issuePaths(chatListQuerySchema, { limit: '101' })).toEqual(['limit']);
  });

  it('page is a cursor page of chats', () => {
    const page = { next: 'https://x.test/api/chat/?lastModified=2024-05-01T10%3A00%3A00Z&limit=20', previous: null, results: [{ ...groupChat, lastMessage: message, unreadCount: 3, unreadMentions: 1 }, { ...groupChat, id: 13, lastMessage: null, unreadCount: 0, unreadMentions: 0 }] };
    expect(chatListPageSchema.parse(page)).toEqual(page);
    expect(issuePaths(chatListPageSchema, { ...page, results: [{ ...groupChat, id: 'x', lastMessage: null, unreadCount: 0, unreadMentions: 0 }] })).toEqual([
      'results.0.id',
    ]);
    expect(issuePaths(chatListPageSchema, { ...page, results: [groupChat] })).toEqual(['results.0.lastMessage', 'results.0.unreadCount', 'results.0.unreadMentions']);
  });
});

describe('own membership', () => {
  const member = { id: 5, lastReadMessage: null, nickName: 'Ana', language: 'en', chatRole: 2001, tone: 'DEFAULT', memberState: 'joined', muted: false };

  it('parses the own membership, lastReadMessage null or an id', () => {
    expect(chatMemberSchema.parse(member)).toEqual(member);
    expect(chatMemberSchema.parse({ ...member, lastReadMessage: 900 }).lastReadMessage).toBe(900);
  });

  it('rejects the unknown chat role 2004', () => {
    expect(issuePaths(chatMemberSchema, { ...member, chatRole: 2004 })).toEqual(['chatRole']);
  });

  it('put requires nickName, language and tone; lastReadMessage is optional', () => {
    const body = { nickName: ' Ana ', language: 'en', tone: 'CASUAL' };
    expect(chatMemberPutRequestSchema.parse(body)).toEqual({ nickName: 'Ana', language: 'en', tone: 'CASUAL' });
    expect(chatMemberPutRequestSchema.parse({ ...body, lastReadMessage: 12 }).lastReadMessage).toBe(12);
    expect(issuePaths(chatMemberPutRequestSchema, { nickName: 'Ana' }).sort()).toEqual(['language', 'tone']);
    expect(issuePaths(chatMemberPutRequestSchema, { ...body, tone: 'ANGRY' })).toEqual(['tone']);
  });

  it('put drops a chatRole key (own role is not editable)', () => {
    const parsed = chatMemberPutRequestSchema.parse({ nickName: 'Ana', language: 'en', tone: 'DEFAULT', chatRole: 2001 });
    expect(parsed).not.toHaveProperty('chatRole');
  });

  it('patch accepts a partial body', () => {
    expect(chatMemberPatchRequestSchema.parse({ lastReadMessage: 901 })).toEqual({ lastReadMessage: 901 });
    expect(chatMemberPatchRequestSchema.parse({ tone: 'FORMAL' })).toEqual({ tone: 'FORMAL' });
    expect(issuePaths(chatMemberPatchRequestSchema, { lastReadMessage: 0 })).toEqual(['lastReadMessage']);
    expect(issuePaths(chatMemberPatchRequestSchema, { nickName: '' })).toEqual(['nickName']);
  });

  it('leave query reads permanent from the query string, default false', () => {
    expect(chatMemberDeleteQuerySchema.parse({ permanent: 'true' })).toEqual({ permanent: true });
    expect(chatMemberDeleteQuerySchema.parse({ permanent: 'false' })).toEqual({ permanent: false });
    expect(chatMemberDeleteQuerySchema.parse({})).toEqual({ permanent: false });
    expect(issuePaths(chatMemberDeleteQuerySchema, { permanent: 'maybe' })).toEqual(['permanent']);
  });
});

describe('managing members', () => {
  const managed = { id: 31, user: 'ben@example.com', chatRole: 2002, nickName: 'Ben', avatarImage: null, memberState: 'invited' };

  it('parses a managed member and a counted page of them', () => {
    expect(manageChatMemberSchema.parse(managed)).toEqual(managed);
    const page = { count: 1, next: null, previous: null, results: [managed] };
    expect(chatMembersPageSchema.parse(page)).toEqual(page);
    expect(issuePaths(chatMembersPageSchema, { next: null, previous: null, results: [] })).toEqual(['count']);
  });

  it('query coerces pageIndex and pageSize and keeps q', () => {
    expect(chatMembersQuerySchema.parse({ pageIndex: '1', pageSize: '20', q: 'ben' })).toEqual({
      pageIndex: 1,
      pageSize: 20,
      q: 'ben',
    });
  });

  it('add takes an e-mail and a chat role', () => {
    expect(chatMemberAddRequestSchema.parse({ user: 'ben@example.com', chatRole: 2003 })).toEqual({
      user: 'ben@example.com',
      chatRole: 2003,
    });
    expect(issuePaths(chatMemberAddRequestSchema, { user: 'ben', chatRole: 2003 })).toEqual(['user']);
    expect(issuePaths(chatMemberAddRequestSchema, { user: 'ben@example.com', chatRole: 2004 })).toEqual([
      'chatRole',
    ]);
    expect(issuePaths(chatMemberAddRequestSchema, { user: 'ben@example.com', chatRole: '2003' })).toEqual([
      'chatRole',
    ]);
  });

  it('role update takes only a known chat role', () => {
    expect(chatMemberRoleRequestSchema.parse({ chatRole: 2001 })).toEqual({ chatRole: 2001 });
    expect(issuePaths(chatMemberRoleRequestSchema, { chatRole: 1001 })).toEqual(['chatRole']);
  });

  it('multi delete takes a non-empty id list, permanent defaulting to false', () => {
    expect(chatMembersMultiDeleteRequestSchema.parse({ ids: [3, 4] })).toEqual({ ids: [3, 4], permanent: false });
    expect(chatMembersMultiDeleteRequestSchema.parse({ ids: [3], permanent: true }).permanent).toBe(true);
    expect(issuePaths(chatMembersMultiDeleteRequestSchema, { ids: [] })).toEqual(['ids']);
    expect(issuePaths(chatMembersMultiDeleteRequestSchema, { ids: [1, 'b'] })).toEqual(['ids.1']);
    expect(issuePaths(chatMembersMultiDeleteRequestSchema, { ids: [1], permanent: 'yes' })).toEqual([
      'permanent',
    ]);
  });
});

describe('messages', () => {
  it('parses a translated message and one read in the original', () => {
    expect(chatMessageSchema.parse(message)).toEqual(message);
    const own = { ...message, isMe: true, rawMessage: null, sender: { ...message.sender, avatarImage: null } };
    expect(chatMessageSchema.parse(own)).toEqual(own);
  });

  it('parses a rendering a reader corrected (its corrector gone or not)', () => {
    const corrected = { ...message, content: 'Hola a todos', correction: { by: { id: 5, nickName: 'Ben' }, at: '2024-05-01T10:20:00Z', machine: 'Hola todos' } };
    expect(chatMessageSchema.parse(corrected)).toEqual(corrected);
    const orphan = { ...corrected, correction: { ...corrected.correction, by: null } };
    expect(chatMessageSchema.parse(orphan)).toEqual(orphan);
    expect(issuePaths(chatMessageSchema, { ...corrected, correction: { ...corrected.correction, machine: null } })).toEqual(['correction.machine']);
  });

  it('names the broken nested field', () => {
    expect(
      issuePaths(chatMessageSchema, { ...message, sender: { ...message.sender, chatRole: 2004 } }),
    ).toEqual(['sender.chatRole']);
    expect(
      issuePaths(chatMessageSchema, { ...message, rawMessage: { ...message.rawMessage, language: 'xx' } }),
    ).toEqual(['rawMessage.language']);
    expect(issuePaths(chatMessageSchema, { ...message, isMe: 'false' })).toEqual(['isMe']);
  });

  it('list query coerces limit and toId', () => {
    expect(chatMessagesQuerySchema.parse({ limit: '20', toId: '900' })).toEqual({ limit: 20, toId: 900 });
    expect(chatMessagesQuerySchema.parse({})).toEqual({ limit: 20 });
    expect(issuePaths(chatMessagesQuerySchema, { toId: 'last' })).toEqual(['toId']);
    expect(issuePaths(chatMessagesQuerySchema, { limit: '1000' })).toEqual(['limit']);
  });

  it('list page is a cursor page of messages', () => {
    const page = { next: null, previous: null, results: [message] };
    expect(chatMessagesPageSchema.parse(page)).toEqual(page);
    expect(issuePaths(chatMessagesPageSchema, { ...page, results: [{ ...message, content: null }] })).toEqual([
      'results.0.content',
    ]);
  });

  it('create trims content, bounds it and takes an optional uuid clientId', () => {
    expect(chatMessageCreateRequestSchema.parse({ content: ' Hi ' })).toEqual({ content: 'Hi' });
    const clientId = '3f1c2a4e-8b7d-4c1a-9e2f-5a6b7c8d9e0f';
    expect(chatMessageCreateRequestSchema.parse({ content: 'Hi', clientId }).clientId).toBe(clientId);
    expect(issuePaths(chatMessageCreateRequestSchema, { content: '   ' })).toEqual(['content']);
    expect(issuePaths(chatMessageCreateRequestSchema, { content: 'x'.repeat(LIMITS.messageMax + 1) })).toEqual([
      'content',
    ]);
    expect(issuePaths(chatMessageCreateRequestSchema, { content: 'Hi', clientId: 'abc' })).toEqual(['clientId']);
  });

  it('update requires content', () => {
    expect(chatMessageUpdateRequestSchema.parse({ content: 'Edited' })).toEqual({ content: 'Edited' });
    expect(issuePaths(chatMessageUpdateRequestSchema, {})).toEqual(['content']);
  });
});
