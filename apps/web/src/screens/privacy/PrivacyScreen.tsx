import { displayMessage, GdprClientMessages } from '@mate/api-client';
import { DELETED_MEMBER_NAME } from '@mate/contracts';
import { Alert, Button, Card, Icon, Input, PageHeader } from '@mate/ui';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useDeleteAccount, useExportData } from './usePrivacy';
import './privacy.css';

/** `/settings/privacy` (spec 001 §2): download your data, or delete your account. */
export function PrivacyScreen() {
  useDocumentTitle('Privacy & Data');
  return (
    <div className="screen screen--medium">
      <PageHeader title="Privacy & Data" subtitle="Take a copy of your data with you, or leave Mate for good." />
      <DownloadCard />
      <DeleteAccountCard />
    </div>
  );
}

function DownloadCard() {
  const exportData = useExportData();
  return (
    <Card
      tone="strong"
      title="Download Your Data"
      description="One JSON file with your account, profile, photos, matches, messages, calls, safety records and notification settings."
      icon={<Icon name="lock" size={20} />}
    >
      {exportData.isError && <Alert tone="error">{displayMessage(exportData.error, GdprClientMessages.exportFailed)}</Alert>}
      {exportData.isSuccess && <Alert tone="success">Your data has been downloaded.</Alert>}
      <div className="privacy__actions">
        <Button loading={exportData.isPending} onClick={() => exportData.mutate()}>
          Download Data
        </Button>
      </div>
    </Card>
  );
}

function DeleteAccountCard() {
  const deleteAccount = useDeleteAccount();
  const [expanded, setExpanded] = useState(false);
  const [email, setEmail] = useState('');
  const openButton = useRef<HTMLButtonElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const wasExpanded = useRef(false);

  // Keyboard users land in the field on opening, and back on the button on Cancel.
  useEffect(() => {
    if (expanded) emailInput.current?.focus();
    else if (wasExpanded.current) openButton.current?.focus();
    wasExpanded.current = expanded;
  }, [expanded]);

  const cancel = () => {
    setExpanded(false);
    setEmail('');
    deleteAccount.reset();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const confirmEmail = email.trim();
    if (!confirmEmail) return;
    deleteAccount.mutate(confirmEmail);
  };

  return (
    <Card
      title="Delete Account"
      description="Permanently delete your account and everything in it."
      icon={<Icon name="alert" size={20} />}
      className="privacy__danger"
    >
      {!expanded ? (
        <div className="privacy__actions">
          <Button ref={openButton} variant="danger" onClick={() => setExpanded(true)}>
            Delete Account
          </Button>
        </div>
      ) : (
        <form className="privacy__delete" onSubmit={onSubmit}>
          <Alert tone="warning" title="This cannot be undone">
            Your account, profile, photos, matches, messages, call history, blocks, reports and notification settings
            will be permanently deleted, and you will be signed out everywhere. Members you talked with will see you as{' '}
            {DELETED_MEMBER_NAME}.
          </Alert>
          {deleteAccount.isError && (
            <Alert tone="error">{displayMessage(deleteAccount.error, GdprClientMessages.deleteAccountFailed)}</Alert>
          )}
          <Input
            ref={emailInput}
            label="Type your email to confirm"
            type="email"
            name="confirmEmail"
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <div className="privacy__actions">
            <Button type="submit" variant="danger" loading={deleteAccount.isPending} disabled={email.trim() === ''}>
              Permanently Delete
            </Button>
            <Button variant="secondary" onClick={cancel} disabled={deleteAccount.isPending}>
              Cancel
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
