import { Avatar, Card, Icon } from '@mate/ui';
import { Link } from 'react-router-dom';
import { UnreadBadge } from '../../chat/UnreadBadge';
import { useConversations } from '../../chat/useConversations';
import { memberName } from '../../lib/member-name';
import { usePhotoUrl } from '../../profile/usePhotos';
import { SectionEmpty, SectionError, SectionLoading } from './HomeSectionStates';

/** How many unread conversations the home lists; Messages has them all. */
export const HOME_UNREAD_SHOWN = 5;

/**
 * Conversations with messages the member has not read, newest activity first. The list is the one
 * Messages reads, kept live by the chat sync context (a message pushed, read on another device).
 */
export function UnreadConversationsCard() {
  const conversations = useConversations();
  const photoUrl = usePhotoUrl();
  const unread = (conversations.data ?? []).filter((conversation) => conversation.unreadCount > 0);
  return (
    <Card title="Unread messages" icon={<Icon name="messages" size={20} />} className="home__unread">
      {conversations.isPending ? (
        <SectionLoading label="Loading your conversations..." />
      ) : conversations.isError ? (
        <SectionError
          message="Couldn't load your conversations."
          onRetry={() => void conversations.refetch()}
        />
      ) : unread.length === 0 ? (
        <SectionEmpty>You're all caught up.</SectionEmpty>
      ) : (
        <ul className="home__unread-list">
          {unread.slice(0, HOME_UNREAD_SHOWN).map((conversation) => {
            const name = memberName(conversation.userName);
            return (
              <li key={conversation.userId}>
                <Link to={`/chat/${encodeURIComponent(conversation.userId)}`} className="home__unread-row">
                  {/* The name follows in text: the picture would only say it twice. */}
                  <span aria-hidden="true">
                    <Avatar name={name} src={photoUrl(conversation.profilePicture, 'thumb')} size="md" />
                  </span>
                  <span className="home__unread-body">
                    <span className="home__unread-name">{name}</span>{' '}
                    <span className="home__unread-last">{conversation.lastMessage}</span>
                  </span>
                  <UnreadBadge count={conversation.unreadCount} className="home__unread-badge" />
                </Link>
              </li>
            );
          })}
        </ul>
      )}
      <Link to="/matches" className="home__more home__footer-link">
        All messages
      </Link>
    </Card>
  );
}
