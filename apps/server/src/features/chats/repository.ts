// Data access of group chats: chats, memberships, messages and their renderings. Every query of a
// chat's content is scoped by chat id; the service has checked the caller's membership before.
// Each use case has its part beside this file (*-repository.ts); this composes them into one.
import type { Db } from '../../platform/db/index';
import { createAttachmentsRepository } from './attachments-repository';
import { createAwarenessRepository } from './awareness-repository';
import { createMembersRepository } from './members-repository';
import { createMessagesRepository } from './messages-repository';
import { createPostingRepository } from './posting-repository';
import { createReactionsRepository } from './reactions-repository';
import { createRenderingsRepository } from './renderings-repository';
import { createSearchRepository } from './search-repository';
import { createUserChatsRepository } from './user-chats-repository';

export { HIT_END, HIT_START } from './search-repository';
export type { ReactionRow } from './reactions-repository';
export type {
  AttachmentRow,
  ChatRow,
  MemberRow,
  MemberView,
  MessageRow,
  MessageWithSender,
  QuoteRow,
  RenderingRow,
  RenderingState,
  WithdrawnCorrection,
} from './repository-shared';

export function createChatsRepository(db: Db) {
  return {
    ...createUserChatsRepository(db),
    ...createMembersRepository(db),
    ...createMessagesRepository(db),
    ...createPostingRepository(db),
    ...createSearchRepository(db),
    ...createRenderingsRepository(db),
    ...createAttachmentsRepository(db),
    ...createReactionsRepository(db),
    ...createAwarenessRepository(db),
  };
}

export type ChatsRepository = ReturnType<typeof createChatsRepository>;
