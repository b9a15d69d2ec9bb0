// Notifications of a new message (product.md "Notifications"): to the chat's other members who
// have a device subscribed, their notifications on, no tab open, and the chat not muted (a
// mention notifies even in a muted chat). The text is the recipient's own rendering when it is
// ready: a message that some reader needs rendered has its job held until the render saved the
// texts (the render releases it), at most RENDER_WAIT_MS; then the original, its language named.
import type { Language } from '@parla/contract/constants';
import { mentionedIds, plainText } from '@parla/contract/markup';
import type { PushPayload } from '@parla/contract/notifications';
import { translate } from '../../platform/i18n';
import type { Push } from '../../domain/delivery/push';
import type { TranslationProvider } from '../../domain/rendering/translation/index';
import { groupNeed, sameText, type ReaderGroup } from '../../domain/rendering/reader-group';
import type { ChatsRepository } from './repository';

export const NOTIFY_QUEUE = 'chat-notify';

export interface NotifyJob {
  messageId: number;
}

/** How long after a post its notification waits for the recipients' renderings at most. */
export const RENDER_WAIT_MS = 4000;

const languageName = (language: string, inLanguage: string) => {
  try {
    return new Intl.DisplayNames([inLanguage], { type: 'language' }).of(language) ?? language;
  } catch {
    return language;
  }
};

export function createChatNotifier(deps: { repo: ChatsRepository; push: Push; provider: TranslationProvider }) {
  const { repo, push, provider } = deps;

  return async function notify(job: NotifyJob): Promise<void> {
    const message = await repo.findMessageById(job.messageId);
    if (!message) return;
    const audience = await repo.notificationAudience(message.chatId, message.senderId);
    const mentioned = new Set(mentionedIds(message.content));
    const wanted = audience.recipients.filter((member) => !member.muted || mentioned.has(member.memberId));
    const reachable = await push.reachable(wanted.map((member) => member.userId));
    const offline = new Set(await push.offline(wanted.filter((member) => reachable.has(member.userId)).map((member) => member.userId)));
    const recipients = wanted.filter((member) => offline.has(member.userId));
    if (recipients.length === 0) return;

    // The recipients who read another language or tone get the renderings saved by now.
    const needOf = (member: ReaderGroup) => (message.content === '' ? 'original' : groupNeed(provider, message.language, member));
    const renderings = recipients.some((member) => needOf(member) === 'rendering') ? await repo.renderings(message.id, message.version) : [];

    const names = await repo.nickNames(message.chatId, [...mentioned]);
    const nameOf = (memberId: number) => names.get(memberId) ?? '…';
    const attachments = message.hasAttachments ? await repo.attachmentsFor([message.id]) : [];
    const clip = attachments.length ? `📎 ${attachments.map((file) => file.name).join(', ')}` : '';
    const targets = recipients.map((member) => {
      const reading = member.language as Language;
      const label = (member.interfaceLanguage || reading) as Language;
      const rendering = renderings.find((r) => sameText(r, member) && r.state === 'done' && r.content !== null);
      let body: string;
      let lang: Language;
      if (message.content === '') {
        body = clip;
        lang = reading;
      } else if (needOf(member) === 'original' || rendering) {
        body = plainText(rendering?.content ?? message.content, nameOf);
        lang = rendering ? reading : (message.language as Language);
      } else {
        // No rendering (a pair the provider lacks, a failure, or not ready in time): the original, its language named.
        body = translate(label, 'pushOriginal', { language: languageName(message.language, label), text: plainText(message.content, nameOf) });
        lang = message.language as Language;
      }
      if (message.content !== '' && clip) body = `${body}\n${clip}`;
      const titleKey = mentioned.has(member.memberId) ? 'pushMentionTitle' : 'pushMessageTitle';
      const payload: PushPayload = {
        kind: mentioned.has(member.memberId) ? 'mention' : 'message',
        title: translate(label, titleKey, { sender: audience.senderName, chat: audience.title }),
        body,
        lang,
        url: `/chat/${message.chatId}?message=${message.id}`,
        tag: `chat-${message.chatId}`,
        messageId: message.id,
      };
      return { userId: member.userId, payload };
    });
    await push.deliver(targets);
  };
}
