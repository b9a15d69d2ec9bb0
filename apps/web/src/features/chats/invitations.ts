// The invitee's answers to an invitation to a chat (lib/invitations.ts), in the chat's cache.
import { useInvitationAnswers, type InvitationCache } from '../../lib/invitations';
import { chatKeys } from './api';
import { expectRemoval } from './live-sync';
import { markJoined, removeChat, type ChatListPages } from './timeline';

const chatCache: InvitationCache = {
  ownKey: chatKeys.member,
  topicKey: chatKeys.chat,
  lists: chatKeys.list(),
  markJoined: (queryClient, id) => queryClient.setQueryData<ChatListPages>(chatKeys.list(), (data) => markJoined(data, id)),
  drop: (queryClient, id) => queryClient.setQueryData<ChatListPages>(chatKeys.list(), (data) => removeChat(data, id)),
  expectRemoval,
};

export const useChatInvitationAnswers = () => useInvitationAnswers('chat', chatCache);
