import { displayMessage } from '@mate/api-client';
import { AuthMessages } from '@mate/contracts';
import { Alert, Button, Card, Icon, Input, PageHeader } from '@mate/ui';
import { useState, type FormEvent } from 'react';
import { useAuth } from '../../auth/AuthContext';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useRequestEmailChange } from './useRequestEmailChange';
import './account.css';

/** `/settings/account` (spec 001 §2): change the account email. */
export function AccountScreen() {
  const { user } = useAuth();
  const [newEmail, setNewEmail] = useState('');
  const request = useRequestEmailChange();
  useDocumentTitle('Account Settings');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = newEmail.trim();
    if (!email) return;
    request.mutate(email, { onSuccess: () => setNewEmail('') });
  };

  return (
    <div className="screen screen--medium">
      <PageHeader title="Account Settings" subtitle="Manage the email address you sign in with." />

      <Card
        tone="strong"
        title="Change Email Address"
        description="We'll send a verification link to the new address. Your email only changes once you open it."
        icon={<Icon name="mail" size={20} />}
      >
        {user?.email && (
          <p className="account__current">
            Current email: <strong>{user.email}</strong>
          </p>
        )}
        {request.isSuccess && (
          <Alert tone="success">{request.data?.message || AuthMessages.emailChangeRequested}</Alert>
        )}
        {request.isError && (
          <Alert tone="error">{displayMessage(request.error, 'Failed to request email change')}</Alert>
        )}
        <form className="account__form" onSubmit={onSubmit}>
          <Input
            label="New Email Address"
            type="email"
            name="newEmail"
            autoComplete="email"
            required
            value={newEmail}
            onChange={(event) => setNewEmail(event.target.value)}
          />
          <div className="account__actions">
            <Button type="submit" loading={request.isPending} disabled={newEmail.trim() === ''}>
              Change Email
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
