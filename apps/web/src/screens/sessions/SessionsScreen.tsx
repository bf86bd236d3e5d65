import { displayMessage } from '@mate/api-client';
import type { SessionDto } from '@mate/contracts';
import { Alert, Badge, Button, Card, ConfirmDialog, Icon, Spinner, PageHeader } from '@mate/ui';
import { useState } from 'react';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { SessionItem } from './SessionItem';
import { useDeleteOtherSessions, useDeleteSession, useMySessions } from './useSessions';
import './sessions.css';

/** `/settings/sessions` (spec 001 §2): see and end the places you are signed in. */
export function SessionsScreen() {
  const sessions = useMySessions();
  const deleteSession = useDeleteSession();
  const deleteOthers = useDeleteOtherSessions();
  const [pending, setPending] = useState<SessionDto | null>(null);
  const [confirmAll, setConfirmAll] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  useDocumentTitle('Sessions');

  const list = sessions.data ?? [];
  const current = list.find((session) => session.isCurrent);
  const others = list.filter((session) => !session.isCurrent);
  // Re-rendered by the 30 s refresh, which keeps the relative times fresh too.
  const now = sessions.dataUpdatedAt || Date.now();

  const confirmLogout = () => {
    if (!pending) return;
    setActionError(null);
    deleteSession.mutate(pending.id, {
      onSuccess: () => setPending(null),
      onError: (error) => {
        setPending(null);
        setActionError(displayMessage(error, 'Failed to logout session'));
      },
    });
  };

  const confirmLogoutAll = () => {
    setActionError(null);
    deleteOthers.mutate(undefined, {
      onSuccess: () => setConfirmAll(false),
      onError: (error) => {
        setConfirmAll(false);
        setActionError(displayMessage(error, 'Failed to logout all sessions'));
      },
    });
  };

  return (
    <div className="screen screen--medium">
      <PageHeader
        back={{ to: '/profile', label: 'Back to Profile' }}
        title="Active Sessions"
        subtitle="The devices where you're signed in to Mate."
      />

      {actionError && <Alert tone="error">{actionError}</Alert>}

      {sessions.isPending ? (
        <Card>
          <div className="screen--center">
            <Spinner label="Loading sessions..." showLabel />
          </div>
        </Card>
      ) : sessions.isError ? (
        <Alert tone="error" title="Failed to load sessions">
          {displayMessage(sessions.error, 'Please try again in a moment.')}
          <div className="alert-actions">
            <Button variant="secondary" onClick={() => void sessions.refetch()}>
              Try Again
            </Button>
          </div>
        </Alert>
      ) : (
        <>
          {current && (
            <Card title="This Device" icon={<Icon name="check" size={20} />} tone="accent">
              <ul className="session-list">
                <SessionItem session={current} now={now} />
              </ul>
            </Card>
          )}

          <Card
            title={
              <span className="sessions__other-title">
                Other Sessions <Badge tone="accent">{others.length}</Badge>
              </span>
            }
            icon={<Icon name="devices" size={20} />}
            actions={
              others.length > 0 ? (
                <Button variant="danger" onClick={() => setConfirmAll(true)}>
                  Logout All Other Devices
                </Button>
              ) : undefined
            }
          >
            {others.length === 0 ? (
              <p className="sessions__only">This is your only active session.</p>
            ) : (
              <ul className="session-list">
                {others.map((session) => (
                  <SessionItem key={session.id} session={session} now={now} onLogout={() => setPending(session)} />
                ))}
              </ul>
            )}
          </Card>
        </>
      )}

      <aside className="tip" aria-label="Security tip">
        <Icon name="shield" size={20} />
        <p>
          <strong>Tip:</strong> Sessions expire after 7 days of inactivity. If you see a session you don't
          recognise, log it out and change your password.
        </p>
      </aside>

      <ConfirmDialog
        open={pending !== null}
        title="Logout Session?"
        message={
          pending
            ? `${pending.deviceInfo || 'This device'} will be signed out and will need to sign in again.`
            : undefined
        }
        confirmLabel="Logout"
        tone="danger"
        busy={deleteSession.isPending}
        onConfirm={confirmLogout}
        onCancel={() => setPending(null)}
      />
      <ConfirmDialog
        open={confirmAll}
        title="Logout All Other Devices?"
        message="Every other device will be signed out. This device stays signed in."
        confirmLabel="Logout All"
        tone="danger"
        busy={deleteOthers.isPending}
        onConfirm={confirmLogoutAll}
        onCancel={() => setConfirmAll(false)}
      />
    </div>
  );
}
