import type { NewMatchPayload } from '@mate/contracts';
import { Avatar, Button, Dialog, Icon } from '@mate/ui';
import { useRef } from 'react';
import { useAuth } from '../auth/AuthContext';
import { usePhotoSrcSet, usePhotoUrl } from '../profile/usePhotos';
import { memberName } from '../lib/member-name';
import './match-dialog.css';

/** The other member of a match, as the popup shows them. */
export type MatchedMember = NewMatchPayload['user'];

export interface MatchDialogProps {
  /** The member matched with; no dialog when null. */
  member: MatchedMember | null;
  onSendMessage: (member: MatchedMember) => void;
  /** Keep Swiping, Escape and the backdrop. */
  onKeepSwiping: () => void;
}

/** Spec 000 §2: 'It's a Match!' with Send Message and Keep Swiping. */
export function MatchDialog({ member, onSendMessage, onKeepSwiping }: MatchDialogProps) {
  const { profile, user } = useAuth();
  const photoUrl = usePhotoUrl();
  const photoSrcSet = usePhotoSrcSet();
  const sendRef = useRef<HTMLButtonElement>(null);
  const name = memberName(member?.name);
  const ownName = profile?.name || user?.name || 'You';

  return (
    <Dialog
      open={member !== null}
      title="It's a Match!"
      description={`You and ${name} like each other.`}
      onClose={onKeepSwiping}
      initialFocusRef={sendRef}
      className="match-dialog"
      footer={
        <>
          <Button variant="secondary" onClick={onKeepSwiping}>
            Keep Swiping
          </Button>
          <Button
            ref={sendRef}
            icon={<Icon name="messages" size={18} />}
            onClick={() => member && onSendMessage(member)}
          >
            Send Message
          </Button>
        </>
      }
    >
      <div className="match-dialog__pair">
        <Avatar
          name={ownName}
          src={photoUrl(profile?.profilePicture, 'thumb')}
          srcSet={photoSrcSet(profile?.profilePicture)}
          size="xl"
        />
        <span className="match-dialog__heart">
          <Icon name="heart" size={28} />
        </span>
        <Avatar
          name={name}
          src={photoUrl(member?.profilePicture, 'thumb')}
          srcSet={photoSrcSet(member?.profilePicture)}
          size="xl"
        />
      </div>
    </Dialog>
  );
}
