import { ChatMessages, ChatTexts, type ConversationSummaryDto } from '@mate/contracts';
import { Alert, Button, Card, EmptyState, Icon, Spinner, buttonClassName, PageHeader } from '@mate/ui';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useConversations } from '../../chat/useConversations';
import { useNow } from '../../chat/useNow';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { memberName } from '../../lib/member-name';
import { MemberProfileDialog } from '../member/MemberProfileDialog';
import { rowPictureLoading } from '../../lib/row-picture';
import { ConversationRow } from './ConversationRow';
import './messages.css';

/** Relative times move on while the list stays open. */
const CLOCK_TICK_MS = 30_000;

/**
 * `/matches` (spec 000 §2 Messages): one row per match, newest activity first, live while open
 * (a pushed message moves its row to the top and counts as unread).
 */
export function MessagesScreen() {
  const conversations = useConversations();
  const now = useNow(CLOCK_TICK_MS);
  const [viewing, setViewing] = useState<ConversationSummaryDto | null>(null);
  useDocumentTitle(ChatTexts.messagesTitle);

  return (
    <div className="screen screen--medium messages">
      <PageHeader title={ChatTexts.messagesTitle} back={{ to: '/dashboard', label: 'Back to Dashboard' }} />
      {conversations.isPending ? (
        <Card className="messages__placeholder">
          <Spinner label="Loading conversations..." showLabel />
        </Card>
      ) : conversations.isError ? (
        <Alert tone="error" title={ChatMessages.loadConversationsFailed}>
          <div className="alert-actions">
            <Button variant="secondary" onClick={() => void conversations.refetch()}>
              Try Again
            </Button>
          </div>
        </Alert>
      ) : conversations.data.length === 0 ? (
        <Card className="messages__placeholder">
          <EmptyState
            icon={<Icon name="messages" size={32} />}
            title={ChatTexts.noMatches}
            action={
              <Link to="/discover" className={buttonClassName()}>
                <Icon name="compass" size={18} />
                {ChatTexts.discoverMatches}
              </Link>
            }
          />
        </Card>
      ) : (
        <Card as="div" className="messages__card">
          <ul className="messages__list" aria-label="Conversations">
            {conversations.data.map((conversation, index) => (
              <ConversationRow
                key={conversation.userId}
                conversation={conversation}
                now={now}
                pictureLoading={rowPictureLoading(index)}
                onViewProfile={conversation.readOnly ? undefined : () => setViewing(conversation)}
              />
            ))}
          </ul>
        </Card>
      )}
      {viewing && (
        <MemberProfileDialog
          userId={viewing.userId}
          preview={{
            name: memberName(viewing.userName),
            photoUrls: viewing.profilePicture ? [viewing.profilePicture] : [],
          }}
          onClose={() => setViewing(null)}
        />
      )}
    </div>
  );
}
