import { AdminMessages, isApiError, photoPathAtSize } from '@mate/api-client';
import type { AdminUserDetailDto } from '@mate/contracts';
import { Alert, Button, Card, Icon, Spinner, PageHeader } from '@mate/ui';
import type { ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useApi } from '../../api/ApiContext';
import { useBrowser } from '../../browser/AdminBrowser';
import { ErrorCard } from '../../components/ErrorCard';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { NEVER, count, formatDate, formatDateTime, messageOf, orNA } from '../../lib/format';
import { useModerateUser, useUserDetail, type ModerationAction } from './useUserDetail';

/** Spec 001 §5 prompts and confirmations, word for word. */
export const SUSPEND_PROMPT = 'Enter suspension reason:';
export const UNSUSPEND_CONFIRM = 'Are you sure you want to unsuspend this user?';
export const FINAL_DELETE_WARNING = 'FINAL WARNING: This will permanently delete all user data. Continue?';
export function deleteConfirmText(name: string): string {
  return `Are you sure you want to delete ${name}? This action cannot be undone.`;
}

const SUCCESS: Record<ModerationAction['kind'], string> = {
  suspend: 'User suspended successfully',
  unsuspend: 'User unsuspended successfully',
  delete: 'User deleted successfully',
};
const FAILURE: Record<ModerationAction['kind'], string> = {
  suspend: AdminMessages.suspendFailed,
  unsuspend: AdminMessages.unsuspendFailed,
  delete: AdminMessages.deleteFailed,
};

const BACK = { to: '/admin', label: 'Back to Dashboard' };

function yesNo(value: boolean | null): string {
  return value === null ? 'N/A' : value ? 'Yes' : 'No';
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="detail-field">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** `/admin/users/{userId}` (spec 001 §2 Admin user detail). */
export function UserDetailScreen() {
  useDocumentTitle('User Details');
  const { userId = '' } = useParams();
  const user = useUserDetail(userId);
  const moderate = useModerateUser(userId);
  const browser = useBrowser();
  const navigate = useNavigate();
  const { admin } = useApi();

  if (user.isPending) {
    return (
      <div className="admin-loading admin-loading--page">
        <Spinner />
        <p>Loading user details</p>
      </div>
    );
  }

  if (user.error || !user.data) {
    const notFound = !user.error || (isApiError(user.error) && user.error.status === 404 && !user.error.serverMessage);
    return (
      <div className="admin-screen">
        <ErrorCard message={notFound ? AdminMessages.userNotFound : messageOf(user.error, AdminMessages.userLoadFailed)}>
          <Button variant="secondary" onClick={() => void navigate('/admin')}>
            Back to Dashboard
          </Button>
        </ErrorCard>
      </div>
    );
  }

  const detail: AdminUserDetailDto = user.data;
  const displayName = detail.name ?? detail.email ?? 'this user';
  // Without the account part, "never active" and "not suspended" are unknown, not facts.
  const accountKnown = !detail.unavailable.includes('account');

  const run = (action: ModerationAction) => {
    moderate.mutate(action, {
      onSuccess: () => {
        browser.alert(SUCCESS[action.kind]);
        if (action.kind === 'delete') void navigate('/admin');
      },
      onError: (error) => browser.alert(messageOf(error, FAILURE[action.kind])),
    });
  };

  const suspend = () => {
    const reason = browser.prompt(SUSPEND_PROMPT);
    if (!reason || !reason.trim()) return;
    run({ kind: 'suspend', reason: reason.trim() });
  };
  const unsuspend = () => {
    if (browser.confirm(UNSUSPEND_CONFIRM)) run({ kind: 'unsuspend' });
  };
  const remove = () => {
    if (!browser.confirm(deleteConfirmText(displayName))) return;
    if (!browser.confirm(FINAL_DELETE_WARNING)) return;
    run({ kind: 'delete' });
  };

  return (
    <div className="admin-screen">
      <PageHeader back={BACK} title={detail.name ?? 'User Details'} subtitle={detail.email ?? undefined} />

      {detail.isSuspended && (
        <Alert tone="error" title="This user is suspended">
          <p>Reason: {orNA(detail.suspensionReason)}</p>
          <p>Suspended: {formatDateTime(detail.suspendedAt)}</p>
        </Alert>
      )}
      {detail.unavailable.length > 0 && (
        <Alert tone="info">Some details could not be loaded ({detail.unavailable.join(', ')}) and show as N/A.</Alert>
      )}

      <div className="detail-grid">
        <Card title="Profile Information" titleLevel={2}>
          <dl className="detail-fields">
            <Field label="Name">{orNA(detail.name)}</Field>
            <Field label="Email">{orNA(detail.email)}</Field>
            <Field label="Age">{orNA(detail.age)}</Field>
            <Field label="Gender">{orNA(detail.gender)}</Field>
            <Field label="Location">{orNA(detail.location)}</Field>
            <Field label="Role">{orNA(detail.role)}</Field>
            <Field label="Bio">{orNA(detail.bio)}</Field>
          </dl>
          {detail.photos.length > 0 && (
            <ul className="detail-photos" aria-label="Photos">
              {detail.photos.map((photo, index) => (
                <li key={photo.id}>
                  {/* A third of the detail card: the 600 px file. */}
                  <img
                    src={admin.apiUrl(photoPathAtSize(photo.url, 'medium'))}
                    alt={`Photo ${index + 1} of ${displayName}`}
                    loading="lazy"
                    decoding="async"
                  />
                </li>
              ))}
            </ul>
          )}
        </Card>

        <Card title="User Activity" titleLevel={2}>
          <dl className="detail-fields">
            <Field label="Joined">{formatDate(detail.createdAt)}</Field>
            <Field label="Last Active">{accountKnown ? formatDateTime(detail.lastActive, NEVER) : 'N/A'}</Field>
            <Field label="Matches">{count(detail.matchCount)}</Field>
            <Field label="Reports Made">{count(detail.reportsMade)}</Field>
            <Field label="Reports Received">{count(detail.reportsReceived)}</Field>
            <Field label="Email Verified">{yesNo(detail.isVerified)}</Field>
            <Field label="Account Active">{yesNo(detail.isActive)}</Field>
          </dl>
        </Card>

        <Card title="Moderation Actions" titleLevel={2}>
          <div className="moderation-actions">
            {!accountKnown ? null : detail.isSuspended ? (
              <Button variant="secondary" loading={moderate.isPending} onClick={unsuspend} icon={<Icon name="check" size={18} />}>
                Unsuspend User
              </Button>
            ) : (
              <Button variant="secondary" loading={moderate.isPending} onClick={suspend} icon={<Icon name="ban" size={18} />}>
                Suspend User
              </Button>
            )}
            <Button variant="danger" loading={moderate.isPending} onClick={remove} icon={<Icon name="trash" size={18} />}>
              Delete User
            </Button>
          </div>
        </Card>
      </div>
    </div>
  );
}
