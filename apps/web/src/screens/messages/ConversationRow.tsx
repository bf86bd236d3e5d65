import { ChatTexts, type ConversationSummaryDto } from '@mate/contracts';
import { Avatar, Icon } from '@mate/ui';
import { Link } from 'react-router-dom';
import { UnreadBadge } from '../../chat/UnreadBadge';
import { memberName } from '../../lib/member-name';
import { formatMessageTime } from '../../lib/relative-time';
import { usePhotoUrl } from '../../profile/usePhotos';

/**
 * One conversation of spec 000 §2 Messages: picture or initial, unread badge, name or 'Unknown
 * User', relative time (§5), last message or 'Start a conversation'. The whole row opens the chat;
 * a separate button beside it opens the member's profile (issue 25).
 */
export function ConversationRow({
  conversation,
  now,
  onViewProfile,
  pictureLoading,
}: {
  conversation: ConversationSummaryDto;
  now: number;
  /** `lazy` for a row below the first screen. */
  pictureLoading?: 'lazy';
  /** Absent for a deleted account, which has no profile to show. */
  onViewProfile?: () => void;
}) {
  const photoUrl = usePhotoUrl();
  const name = memberName(conversation.userName);
  const unread = conversation.unreadCount;
  return (
    <li className="conversation-row__item">
      <Link
        to={`/chat/${encodeURIComponent(conversation.userId)}`}
        className={unread > 0 ? 'conversation-row conversation-row--unread' : 'conversation-row'}
      >
        <span className="conversation-row__avatar">
          <Avatar name={name} src={photoUrl(conversation.profilePicture, 'thumb')} size="lg" loading={pictureLoading} />
          <UnreadBadge count={unread} className="conversation-row__badge" />
        </span>
        <span className="conversation-row__body">
          <span className="conversation-row__top">
            <span className="conversation-row__name">{name}</span>
            <time className="conversation-row__time" dateTime={conversation.lastMessageTime}>
              {formatMessageTime(conversation.lastMessageTime, now)}
            </time>
          </span>
          <span
            className={
              conversation.lastMessage === null ? 'conversation-row__last is-empty' : 'conversation-row__last'
            }
          >
            {conversation.lastMessage ?? ChatTexts.startConversation}
          </span>
        </span>
      </Link>
      {onViewProfile && (
        <button
          type="button"
          className="conversation-row__profile"
          aria-label={`View ${name}'s profile`}
          aria-haspopup="dialog"
          title={`View ${name}'s profile`}
          onClick={onViewProfile}
        >
          <Icon name="user" size={20} />
        </button>
      )}
    </li>
  );
}
