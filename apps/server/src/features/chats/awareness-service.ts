// The chats service's awareness of people: how far the other members read ("seen by", for a reader
// who shares their own) and who is online, away or offline.
import type { ChatPresence, ChatReceipts } from '@parla/contract/chat';
import type { ServiceShared } from './service-shared';

export function createAwarenessService(shared: ServiceShared) {
  const { deps, load } = shared;
  const { repo, privacy, presence } = deps;

  return {
    async listReceipts(chatId: number, userId: number): Promise<ChatReceipts> {
      const { member } = await load(chatId, userId);
      // Someone who does not share theirs sees nobody's.
      if (!(await privacy.get(userId))?.readReceipts) return { enabled: false, results: [] };
      const rows = await repo.receipts(chatId, member.id);
      return {
        enabled: true,
        results: rows.flatMap((row) =>
          row.lastReadMessage === null ? [] : [{ memberId: row.memberId, nickName: row.nickName, lastReadMessage: row.lastReadMessage, readAt: row.readAt?.toISOString() ?? null }],
        ),
      };
    },

    async listPresence(chatId: number, userId: number): Promise<ChatPresence> {
      await load(chatId, userId);
      const subjects = await repo.presenceSubjects(chatId);
      const views = await presence.of(subjects);
      return {
        results: subjects.map((subject) => {
          const view = views.get(subject.userId);
          return { memberId: subject.memberId, state: view?.state ?? 'offline', lastSeen: view?.lastSeen?.toISOString() ?? null };
        }),
      };
    },
  };
}
