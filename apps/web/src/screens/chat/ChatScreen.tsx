import { CallMessages, ChatMessages, ChatTexts, SocketMessages } from '@mate/contracts';
import { Alert, Avatar, Button, Card, EmptyState, Icon, Spinner, buttonClassName, readStoredToken } from '@mate/ui';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { isLiveCall, useCall } from '../../call/call-types';
import { useChatSync } from '../../chat/ChatSyncContext';
import { useChatEntries, useHasOlder, useIsTyping, useShowOffline } from '../../chat/useChat';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { usePhotoUrl } from '../../profile/usePhotos';
import { MemberProfileDialog } from '../member/MemberProfileDialog';
import { MessageComposer } from './MessageComposer';
import { MessageList } from './MessageList';
import { NewMatchIntro } from './NewMatchIntro';
import { SafetyMenu } from './SafetyMenu';
import { useChatPartner } from './useChatPartner';
import { useOpenConversation } from './useOpenConversation';
import './chat.css';

/** Phones bring up the keyboard on focus: the input takes the focus only where a keyboard is at hand. */
function hasFinePointer(): boolean {
  return typeof window.matchMedia !== 'function' || !window.matchMedia('(pointer: coarse)').matches;
}

/** `/chat/{userId}` (spec 000 §2, §4 Chat). A visitor without a stored auth token goes to /. */
export function ChatScreen() {
  const { userId = '' } = useParams();
  if (!readStoredToken()) return <Navigate to="/" replace />;
  // A new conversation starts fresh: scroll position, draft and state are per member.
  return <Conversation key={userId} userId={userId} />;
}

function Conversation({ userId }: { userId: string }) {
  const sync = useChatSync();
  const navigate = useNavigate();
  const photoUrl = usePhotoUrl();
  const partner = useChatPartner(userId);
  const { state, retry } = useOpenConversation(sync, userId);
  const entries = useChatEntries(userId);
  const typing = useIsTyping(userId);
  const offline = useShowOffline();
  const hasOlder = useHasOlder(userId);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const call = useCall();
  const [startingCall, setStartingCall] = useState(false);
  const [viewingProfile, setViewingProfile] = useState(false);
  const [starter, setStarter] = useState<{ text: string } | null>(null);
  useDocumentTitle(partner.title);
  // A deleted account or a stranger has no profile to show (the server would answer 404).
  const profileViewable = state !== 'not-found' && !partner.readOnly;

  useEffect(() => {
    if (state === 'ready' && hasFinePointer()) inputRef.current?.focus();
  }, [state]);

  const send = useCallback(
    (content: string) => {
      if (!sync) throw new Error(SocketMessages.notConnected);
      sync.send(userId, content);
    },
    [sync, userId],
  );
  const onTyping = useCallback(() => sync?.typing(userId), [sync, userId]);
  const onRetry = useCallback((clientId: string) => sync?.retry(clientId), [sync]);
  const loadOlder = useCallback(async () => {
    await sync?.loadOlder(userId);
  }, [sync, userId]);

  const callPath = `/call/${encodeURIComponent(userId)}`;
  const inCallWithPartner = call.peerId === userId && isLiveCall(call.phase);
  const videoCall = async () => {
    // Already on a call with them (they left the call screen): back to it, not a second call.
    if (inCallWithPartner) {
      void navigate(callPath);
      return;
    }
    // They are calling us right now: pressing Video Call answers them (a call of our own would be busy).
    const ringingFromPartner = call.phase === 'incoming' && call.peerId === userId;
    setStartingCall(true);
    try {
      if (ringingFromPartner) await call.answer();
      else await call.startCall(userId, partner.name);
      void navigate(callPath);
    } catch (error) {
      // Spec 000 §8: a refused camera or microphone, or the server's refusal ('User is busy'), is an
      // alert in the chat. A failed answer has already rejected the call.
      const fallback = ringingFromPartner ? CallMessages.answerFailed : CallMessages.startFailed;
      window.alert(error instanceof Error ? error.message : fallback);
    } finally {
      setStartingCall(false);
    }
  };

  const header = (
    <header className="chat-header">
      <Link
        to="/matches"
        className={buttonClassName({ variant: 'ghost', className: 'chat-header__back' })}
        aria-label="Back to Messages"
      >
        <Icon name="arrow-left" size={20} />
      </Link>
      {profileViewable ? (
        <div className="chat-header__titles">
          <h1 className="chat-header__name">
            <button
              type="button"
              className="chat-header__profile"
              aria-haspopup="dialog"
              title={`View ${partner.name}'s profile`}
              onClick={() => setViewingProfile(true)}
            >
              {/* The name alone names the heading and the button; the photo repeats it. */}
              <span aria-hidden="true">
                <Avatar name={partner.name} src={photoUrl(partner.picture, 'thumb')} size="md" />
              </span>
              <span className="chat-header__profile-name">{partner.title}</span>
            </button>
          </h1>
          <p className="chat-header__typing chat-header__typing--under-photo" aria-live="polite">
            {typing ? ChatTexts.typing : ''}
          </p>
        </div>
      ) : (
        <>
          <Avatar name={partner.name} src={photoUrl(partner.picture, 'thumb')} size="md" />
          <div className="chat-header__titles">
            <h1 className="chat-header__name">{partner.title}</h1>
            <p className="chat-header__typing" aria-live="polite">
              {typing ? ChatTexts.typing : ''}
            </p>
          </div>
        </>
      )}
      {profileViewable && (
        <div className="chat-header__actions">
          <Button
            variant="secondary"
            className="chat-header__icon-button"
            icon={<Icon name="video" size={20} />}
            aria-label="Video Call"
            title="Video Call"
            loading={startingCall}
            onClick={() => void videoCall()}
          />
          <SafetyMenu userId={userId} name={partner.name} />
        </div>
      )}
      {viewingProfile && (
        <MemberProfileDialog
          userId={userId}
          preview={{ name: partner.name, photoUrls: partner.picture ? [partner.picture] : [] }}
          onClose={() => setViewingProfile(false)}
        />
      )}
    </header>
  );

  if (state === 'not-found') {
    return (
      <div className="screen screen--medium chat">
        {header}
        <Card className="chat__state">
          <EmptyState
            icon={<Icon name="messages" size={32} />}
            title={ChatMessages.conversationNotFound}
            description={`${ChatMessages.notMatched}. This member is not one of your matches.`}
            action={
              <Link to="/matches" className={buttonClassName({ variant: 'secondary' })}>
                Back to Messages
              </Link>
            }
          />
        </Card>
      </div>
    );
  }

  return (
    <div className="screen screen--medium chat">
      {header}
      {offline && (
        <Alert tone="warning" title={SocketMessages.notConnected} className="chat__offline">
          Messages you send wait here and go when the connection returns.
        </Alert>
      )}
      <Card as="div" className="chat__panel">
        {state === 'loading' ? (
          <div className="chat__state">
            <Spinner label="Loading messages..." showLabel />
          </div>
        ) : state === 'error' ? (
          <div className="chat__state">
            <Alert tone="error" title={ChatMessages.loadConversationFailed}>
              <div className="alert-actions">
                <Button variant="secondary" onClick={retry}>
                  Try Again
                </Button>
              </div>
            </Alert>
          </div>
        ) : (
          <MessageList
            label={`Messages with ${partner.name}`}
            entries={entries}
            hasOlder={hasOlder}
            onLoadOlder={loadOlder}
            onRetry={onRetry}
            empty={
              partner.readOnly ? (
                <EmptyState
                  className="chat__empty"
                  icon={<Icon name="messages" size={32} />}
                  title={ChatTexts.noMessages}
                  description={ChatTexts.sayHi}
                />
              ) : (
                <NewMatchIntro
                  userId={userId}
                  name={partner.name}
                  picture={partner.picture}
                  onStarter={(text) => setStarter({ text })}
                />
              )
            }
          />
        )}
        {partner.readOnly ? (
          <p className="chat__read-only" role="status">
            {ChatMessages.partnerDeleted}
          </p>
        ) : (
          <MessageComposer ref={inputRef} onSend={send} onTyping={onTyping} prefill={starter} />
        )}
      </Card>
    </div>
  );
}
