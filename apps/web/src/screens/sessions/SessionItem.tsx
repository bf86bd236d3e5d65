import type { SessionDto } from '@mate/contracts';
import { Badge, Button, Icon, type IconName } from '@mate/ui';
import { useId } from 'react';
import { guessDeviceKind, type DeviceKind } from '../../lib/device';
import { formatSessionActivity, formatTimestamp } from '../../lib/relative-time';

const DEVICE_ICONS: Record<DeviceKind, IconName> = { phone: 'smartphone', tablet: 'tablet', desktop: 'monitor' };
const DEVICE_LABELS: Record<DeviceKind, string> = { phone: 'Phone', tablet: 'Tablet', desktop: 'Computer' };

export interface SessionItemProps {
  session: SessionDto;
  now: number;
  onLogout?: () => void;
}

export function SessionItem({ session, now, onLogout }: SessionItemProps) {
  const kind = guessDeviceKind(session.deviceInfo);
  const nameId = useId();
  return (
    <li className={session.isCurrent ? 'session session--current' : 'session'} aria-labelledby={nameId}>
      <span className="session__icon">
        <Icon name={DEVICE_ICONS[kind]} size={24} title={DEVICE_LABELS[kind]} />
      </span>
      <div className="session__body">
        <div className="session__title-row">
          <p id={nameId} className="session__device">
            {session.deviceInfo || 'Unknown device'}
          </p>
          {session.isCurrent && <Badge tone="accent">Current Session</Badge>}
        </div>
        <ul className="session__meta">
          {session.ipAddress && (
            <li>
              <Icon name="globe" size={15} />
              <span>
                <span className="mate-visually-hidden">IP address </span>
                {session.ipAddress}
              </span>
            </li>
          )}
          <li>
            <Icon name="clock" size={15} />
            {/* The server's value for every session, the current one included (spec 001 §2). */}
            <span>Last active: {formatSessionActivity(session.lastActivity, now)}</span>
          </li>
          <li>
            <Icon name="login" size={15} />
            <span>Signed in: {formatTimestamp(session.createdAt)}</span>
          </li>
        </ul>
      </div>
      {onLogout && (
        <Button
          variant="secondary"
          className="session__logout"
          onClick={onLogout}
          aria-label={`Logout ${session.deviceInfo || 'Unknown device'}`}
        >
          Logout
        </Button>
      )}
    </li>
  );
}
