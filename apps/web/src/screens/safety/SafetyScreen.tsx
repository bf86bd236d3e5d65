import { displayMessage } from '@mate/api-client';
import { SafetyMessages, SafetyTexts, type BlockedUserDto } from '@mate/contracts';
import { Alert, Avatar, Button, Card, EmptyState, Icon, Spinner, PageHeader, readStoredToken } from '@mate/ui';
import { useId, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { memberName } from '../../lib/member-name';
import { usePhotoUrl } from '../../profile/usePhotos';
import { useBlockedUsers, useUnblock } from '../../safety/useSafety';
import './safety.css';

/** 'Blocked Nov 23, 2026': the day the block was made, in the reader's own way of writing dates. */
export function formatBlockedDate(createdAt: string): string {
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** `/safety` (spec 000 §2 Safety and privacy). A visitor without a stored auth token goes to /. */
export function SafetyScreen() {
  if (!readStoredToken()) return <Navigate to="/" replace />;
  return <Safety />;
}

function Safety() {
  useDocumentTitle(SafetyTexts.title);
  return (
    <div className="screen screen--medium safety">
      <PageHeader
        back={{ to: '/profile', label: 'Back to Profile' }}
        title={SafetyTexts.title}
        subtitle="Who you have blocked, what others can see, and how to stay safe."
      />
      <BlockedUsersCard />
      <PrivacySettingsCard />
      <SafetyTipsCard />
      <NeedHelpPanel />
    </div>
  );
}

function BlockedUsersCard() {
  const blocked = useBlockedUsers();
  const unblock = useUnblock();
  const [unblocking, setUnblocking] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onUnblock = (entry: BlockedUserDto) => {
    if (unblocking) return;
    setError(null);
    setUnblocking(entry.blockedId);
    unblock.mutate(entry.blockedId, {
      onError: (failure) => setError(displayMessage(failure, SafetyMessages.unblockFailed)),
      onSettled: () => setUnblocking(null),
    });
  };

  const list = blocked.data ?? [];
  return (
    <Card title={SafetyTexts.blockedUsers} icon={<Icon name="ban" size={20} />}>
      {error && <Alert tone="error">{error}</Alert>}
      {blocked.isPending ? (
        <div className="screen--center">
          <Spinner label="Loading blocked users..." showLabel />
        </div>
      ) : blocked.isError ? (
        <Alert tone="error" title={SafetyMessages.loadBlockedFailed}>
          <div className="alert-actions">
            <Button variant="secondary" onClick={() => void blocked.refetch()}>
              Try Again
            </Button>
          </div>
        </Alert>
      ) : list.length === 0 ? (
        <EmptyState
          className="safety__empty"
          icon={<Icon name="shield" size={28} />}
          titleLevel={3}
          title={SafetyTexts.noBlockedUsers}
          description="Members you block from a chat show here, and you can unblock them at any time."
        />
      ) : (
        <ul className="blocked-list" aria-label={SafetyTexts.blockedUsers}>
          {list.map((entry) => (
            <BlockedUserItem
              key={entry.id}
              entry={entry}
              busy={unblocking === entry.blockedId}
              disabled={unblocking !== null}
              onUnblock={() => onUnblock(entry)}
            />
          ))}
        </ul>
      )}
    </Card>
  );
}

function BlockedUserItem({
  entry,
  busy,
  disabled,
  onUnblock,
}: {
  entry: BlockedUserDto;
  busy: boolean;
  disabled: boolean;
  onUnblock: () => void;
}) {
  const photoUrl = usePhotoUrl();
  const nameId = useId();
  const name = memberName(entry.name);
  const date = formatBlockedDate(entry.createdAt);
  return (
    <li className="blocked-user" aria-labelledby={nameId}>
      <Avatar name={name} src={photoUrl(entry.photo, 'thumb')} size="md" />
      <div className="blocked-user__body">
        <p id={nameId} className="blocked-user__name">
          {name}
        </p>
        <p className="blocked-user__date">
          {SafetyTexts.blockedOn} {date && <time dateTime={entry.createdAt}>{date}</time>}
        </p>
      </div>
      <Button
        variant="secondary"
        className="blocked-user__unblock"
        loading={busy}
        disabled={disabled}
        aria-label={`${SafetyTexts.unblock} ${name}`}
        onClick={onUnblock}
      >
        {SafetyTexts.unblock}
      </Button>
    </li>
  );
}

function PrivacySettingsCard() {
  return (
    <Card title={SafetyTexts.privacySettings} icon={<Icon name="lock" size={20} />}>
      <dl className="privacy-settings">
        <div className="privacy-settings__row">
          <dt>{SafetyTexts.profileVisibility}</dt>
          <dd>{SafetyTexts.profileVisibilityValue}</dd>
        </div>
        <div className="privacy-settings__row">
          <dt>{SafetyTexts.showInDiscovery}</dt>
          <dd>{SafetyTexts.showInDiscoveryValue}</dd>
        </div>
      </dl>
      <p className="privacy-settings__more">{SafetyTexts.moreControls}</p>
    </Card>
  );
}

function SafetyTipsCard() {
  return (
    <Card title={SafetyTexts.safetyTips} icon={<Icon name="shield" size={20} />}>
      <ol className="safety-tips" aria-label={SafetyTexts.safetyTips}>
        {SafetyTexts.tips.map((tip) => (
          <li key={tip} className="safety-tips__tip">
            <Icon name="check" size={18} />
            <span>{tip}</span>
          </li>
        ))}
      </ol>
    </Card>
  );
}

function NeedHelpPanel() {
  const titleId = useId();
  return (
    <aside className="need-help" aria-labelledby={titleId}>
      <Icon name="alert" size={22} />
      <div>
        <h2 id={titleId} className="need-help__title">
          {SafetyTexts.needHelp}
        </h2>
        <p>{SafetyTexts.needHelpBody}</p>
        <p className="need-help__emergency">
          <strong>{SafetyTexts.emergency}</strong>
        </p>
      </div>
    </aside>
  );
}
