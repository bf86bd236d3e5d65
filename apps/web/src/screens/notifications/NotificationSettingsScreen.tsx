import { displayMessage } from '@mate/api-client';
import { NOTIFICATION_PREFERENCE_KEYS, type NotificationPreferenceKey } from '@mate/contracts';
import { Alert, Badge, Button, Card, Icon, Spinner, PageHeader } from '@mate/ui';
import { useState } from 'react';
import { Switch } from '../../components/Switch';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { PushMessages, usePush } from '../../push/PushContext';
import { useNotificationPreferences, useUpdateNotificationPreference } from './useNotificationPreferences';
import './notification-settings.css';

/** The switches of spec 001 §3 in the panel's order, and the extra one of issue 12. */
const PREFERENCE_LABELS: Record<NotificationPreferenceKey, { label: string; description: string }> = {
  newMatches: { label: 'New Matches', description: 'When you and someone like each other.' },
  newMessages: { label: 'New Messages', description: 'When a match sends you a message.' },
  newLikes: { label: 'New Likes', description: 'When someone likes your profile.' },
  safetyAlerts: { label: 'Safety Alerts', description: 'Updates about blocks and reports.' },
  adminActions: { label: 'Admin Actions', description: 'When a moderator acts on your account.' },
  privatePreviews: {
    label: 'Private previews',
    description: 'Notifications say only that something happened, without names or message text.',
  },
};

/** `/settings/notifications` (spec 001 §2): push opt-in on this device and what to be told about. */
export function NotificationSettingsScreen() {
  useDocumentTitle('Notification Settings');
  return (
    <div className="screen screen--medium">
      <PageHeader title="Notification Settings" subtitle="Choose how and when Mate lets you know." />
      <PushCard />
      <PreferencesCard />
    </div>
  );
}

function PushCard() {
  const push = usePush();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (action: () => Promise<void>, fallback: string) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(failure instanceof Error && failure.message ? failure.message : fallback);
    } finally {
      setBusy(false);
    }
  };

  const blocked = push.supported && push.permission === 'denied';
  const enabled = push.supported && push.permission === 'granted' && push.subscribed;

  let status = null;
  if (blocked) status = <Badge tone="danger">Blocked</Badge>;
  else if (push.supported && push.checked) {
    status = enabled ? <Badge tone="success">Enabled</Badge> : <Badge>Disabled</Badge>;
  }

  return (
    <Card
      tone="strong"
      title="Push Notifications"
      description="Get notified on this device, even when Mate is closed."
      icon={<Icon name="bell" size={20} />}
      actions={status}
    >
      {!push.supported ? (
        <Alert tone="info">{PushMessages.unsupported}</Alert>
      ) : blocked ? (
        <Alert tone="warning" title="Notifications are blocked">
          Your browser is blocking notifications from Mate. To turn them on, allow notifications for this site in your
          browser settings, then come back to this page.
        </Alert>
      ) : (
        <div className="notification-settings__push">
          {error && <Alert tone="error">{error}</Alert>}
          {enabled ? (
            <Button variant="secondary" loading={busy} onClick={() => void run(push.disable, PushMessages.disableFailed)}>
              Disable
            </Button>
          ) : (
            <Button loading={busy} disabled={!push.checked} onClick={() => void run(push.enable, PushMessages.enableFailed)}>
              Enable
            </Button>
          )}
        </div>
      )}
    </Card>
  );
}

function PreferencesCard() {
  const preferences = useNotificationPreferences();
  const [updateError, setUpdateError] = useState<string | null>(null);
  const update = useUpdateNotificationPreference((error) =>
    setUpdateError(displayMessage(error, 'Failed to update notification preferences')),
  );
  const change = (key: NotificationPreferenceKey, value: boolean) => {
    setUpdateError(null);
    update.mutate({ key, value });
  };

  return (
    <Card title="Notification Types" description="What Mate notifies you about." icon={<Icon name="sliders" size={20} />}>
      {updateError && <Alert tone="error">{updateError}</Alert>}
      {preferences.data ? (
        <div className="notification-settings__list">
          {NOTIFICATION_PREFERENCE_KEYS.map((key) => (
            <Switch
              key={key}
              label={PREFERENCE_LABELS[key].label}
              description={PREFERENCE_LABELS[key].description}
              checked={preferences.data[key]}
              onChange={(value) => change(key, value)}
            />
          ))}
        </div>
      ) : (
        <div className="screen--center">
          <Spinner label="Loading preferences..." showLabel />
        </div>
      )}
    </Card>
  );
}
