// A message's text with its light markup (packages/contract/src/markup.ts) as React elements:
// never as HTML. Links open apart (http, https and mailto only: parseMarkup yields nothing else),
// code keeps its spaces, mentions show the member's current nickname (the reader's own stands
// out), a mention of someone gone reads "former member".
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { MemberRef } from '@parla/contract/chat';
import { parseMarkup } from '@parla/contract/markup';

export function MessageText({
  text,
  mentions,
  meId,
  className = 'bubble-text',
  lang,
}: {
  text: string;
  /** The members the text mentions, with their current names. */
  mentions: readonly MemberRef[];
  /** The reader's membership id: their own mentions stand out. */
  meId: number | undefined;
  className?: string;
  lang?: string | undefined;
}) {
  const { t } = useTranslation();
  const nodes = useMemo(() => parseMarkup(text), [text]);
  return (
    <div className={className} dir="auto" lang={lang}>
      {nodes.map((node, index): ReactNode => {
        switch (node.type) {
          case 'text':
            return node.text;
          case 'bold':
            return <strong key={index}>{node.text}</strong>;
          case 'italic':
            return <em key={index}>{node.text}</em>;
          case 'code':
            return (
              <code key={index} className="inline-code" dir="ltr">
                {node.text}
              </code>
            );
          case 'codeBlock':
            return (
              <pre key={index} className="code-block" dir="ltr" tabIndex={0}>
                <code>{node.text}</code>
              </pre>
            );
          case 'link':
            return (
              <a key={index} href={node.href} target="_blank" rel="noopener noreferrer" dir="ltr">
                {node.text}
              </a>
            );
          case 'mention': {
            const member = mentions.find((item) => item.id === node.memberId);
            if (!member) {
              return (
                <span key={index} className="mention mention-former">
                  @{t('chats.formerMember')}
                </span>
              );
            }
            const me = member.id === meId;
            return (
              <span key={index} className={me ? 'mention mention-me' : 'mention'}>
                <bdi>@{member.nickName}</bdi>
                {me && <span className="visually-hidden"> {t('chats.mentionYou')}</span>}
              </span>
            );
          }
        }
      })}
    </div>
  );
}
