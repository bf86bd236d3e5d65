import { displayMessage } from '@mate/api-client';
import {
  BLOCK_RELOAD_DELAY_MS,
  BLOCK_REASON_MAX_LENGTH,
  DEFAULT_REPORT_REASON,
  REPORT_CLOSE_DELAY_MS,
  REPORT_DETAILS_MAX_LENGTH,
  REPORT_REASONS,
  REPORT_REASON_LABELS,
  SafetyMessages,
  SafetyTexts,
  UNMATCH_RELOAD_DELAY_MS,
  type ReportReason,
} from '@mate/contracts';
import { Button, Dialog, Icon, Select, Textarea } from '@mate/ui';
import { useRef, useState, type ReactNode, type Ref } from 'react';
import { useBlock, useReport, useUnmatch } from './useSafety';
import { useSuccessThen } from './useSuccessThen';
import './safety-dialogs.css';

export interface SafetyDialogProps {
  /** The other member. */
  userId: string;
  /** Their name, for the dialog's sentences. */
  name: string;
  /** Cancel, Escape or the backdrop before anything was done. */
  onCancel: () => void;
  /** After the success texts have shown for the spec's delay (spec 000 §4, §9). */
  onDone: () => void;
}

const REASON_OPTIONS = REPORT_REASONS.map((reason) => ({
  value: reason,
  label: REPORT_REASON_LABELS[reason],
}));

function ErrorLine({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p role="alert" className="mate-dialog__error">
      {error}
    </p>
  );
}

/** The success view: its title names the dialog, the body is announced. */
function SuccessDialog({ title, body, onClose }: { title: string; body?: string; onClose: () => void }) {
  return (
    <Dialog open title={title} onClose={onClose} className="safety-dialog safety-dialog--done">
      <div className="safety-dialog__done" role="status">
        <span className="safety-dialog__done-icon" aria-hidden="true">
          <Icon name="check" size={28} />
        </span>
        {body && <p>{body}</p>}
      </div>
    </Dialog>
  );
}

function Footer({
  busy,
  confirmLabel,
  tone,
  onCancel,
  onConfirm,
  cancelRef,
}: {
  busy: boolean;
  confirmLabel: string;
  tone: 'danger' | 'primary';
  onCancel: () => void;
  onConfirm: () => void;
  cancelRef?: Ref<HTMLButtonElement>;
}): ReactNode {
  return (
    <>
      <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button variant={tone} onClick={onConfirm} loading={busy}>
        {confirmLabel}
      </Button>
    </>
  );
}

/**
 * Block (spec 000 §2 chat safety menu, §4): an optional reason, then 'User Blocked' and
 * "You won't see each other anymore"; 1.5 s later `onDone` (the caller reloads).
 */
export function BlockDialog({ userId, name, onCancel, onDone }: SafetyDialogProps) {
  const block = useBlock();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { succeeded, succeed, finish } = useSuccessThen(BLOCK_RELOAD_DELAY_MS, onDone);
  const busy = block.isPending;

  if (succeeded)
    return (
      <SuccessDialog title={SafetyTexts.userBlocked} body={SafetyTexts.userBlockedBody} onClose={finish} />
    );

  const confirm = () => {
    if (busy) return;
    setError(null);
    block.mutate(
      { userId, reason: reason.trim() || undefined },
      {
        onSuccess: succeed,
        onError: (failure) => setError(displayMessage(failure, SafetyMessages.blockFailed)),
      },
    );
  };

  return (
    <Dialog
      open
      role="alertdialog"
      className="safety-dialog"
      title={`Block ${name}?`}
      description={`You won't see each other anymore: your match ends and neither of you can message or find the other. You can unblock ${name} later in ${SafetyTexts.title}.`}
      onClose={() => {
        if (!busy) onCancel();
      }}
      footer={
        <Footer
          busy={busy}
          confirmLabel={SafetyTexts.block}
          tone="danger"
          onCancel={onCancel}
          onConfirm={confirm}
        />
      }
    >
      <Textarea
        label="Reason (optional)"
        value={reason}
        maxLength={BLOCK_REASON_MAX_LENGTH}
        rows={3}
        disabled={busy}
        onChange={(event) => setReason(event.target.value)}
        hint={`${reason.length}/${BLOCK_REASON_MAX_LENGTH}`}
        liveHint
      />
      <ErrorLine error={error} />
    </Dialog>
  );
}

/** Unmatch (spec 000 §4): 'Unmatched', then `onDone` after 1.5 s (the caller reloads). */
export function UnmatchDialog({ userId, name, onCancel, onDone }: SafetyDialogProps) {
  const unmatch = useUnmatch();
  const [error, setError] = useState<string | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const { succeeded, succeed, finish } = useSuccessThen(UNMATCH_RELOAD_DELAY_MS, onDone);
  const busy = unmatch.isPending;

  if (succeeded) return <SuccessDialog title={SafetyTexts.unmatched} onClose={finish} />;

  const confirm = () => {
    if (busy) return;
    setError(null);
    unmatch.mutate(userId, {
      onSuccess: succeed,
      onError: (failure) => setError(displayMessage(failure, SafetyMessages.unmatchFailed)),
    });
  };

  return (
    <Dialog
      open
      role="alertdialog"
      className="safety-dialog"
      title={`Unmatch ${name}?`}
      description="Your match ends and this conversation closes for both of you."
      initialFocusRef={cancelRef}
      onClose={() => {
        if (!busy) onCancel();
      }}
      footer={
        <Footer
          busy={busy}
          confirmLabel={SafetyTexts.unmatch}
          tone="danger"
          cancelRef={cancelRef}
          onCancel={onCancel}
          onConfirm={confirm}
        />
      }
    >
      <ErrorLine error={error} />
    </Dialog>
  );
}

/**
 * Report (spec 000 §3, §4): one of the six reasons (Inappropriate content first and chosen) and
 * optional details up to 1,000 characters; then 'Report Submitted' and the thanks, closing after 2 s.
 */
export function ReportDialog({ userId, name, onCancel, onDone }: SafetyDialogProps) {
  const report = useReport();
  const [reason, setReason] = useState<ReportReason>(DEFAULT_REPORT_REASON);
  const [details, setDetails] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { succeeded, succeed, finish } = useSuccessThen(REPORT_CLOSE_DELAY_MS, onDone);
  const busy = report.isPending;

  if (succeeded) {
    return (
      <SuccessDialog
        title={SafetyTexts.reportSubmitted}
        body={SafetyTexts.reportSubmittedBody}
        onClose={finish}
      />
    );
  }

  const confirm = () => {
    if (busy) return;
    setError(null);
    report.mutate(
      { userId, reason, details: details.trim() || undefined },
      {
        onSuccess: succeed,
        onError: (failure) => setError(displayMessage(failure, SafetyMessages.reportFailed)),
      },
    );
  };

  return (
    <Dialog
      open
      className="safety-dialog"
      title={`Report ${name}`}
      description="Tell our moderators what happened. Your report is confidential."
      onClose={() => {
        if (!busy) onCancel();
      }}
      footer={
        <Footer
          busy={busy}
          confirmLabel="Submit Report"
          tone="danger"
          onCancel={onCancel}
          onConfirm={confirm}
        />
      }
    >
      <Select
        label="Reason"
        options={REASON_OPTIONS}
        value={reason}
        disabled={busy}
        onChange={(event) => setReason(event.target.value as ReportReason)}
      />
      <Textarea
        label="Details (optional)"
        value={details}
        maxLength={REPORT_DETAILS_MAX_LENGTH}
        rows={4}
        disabled={busy}
        onChange={(event) => setDetails(event.target.value)}
        hint={`${details.length}/${REPORT_DETAILS_MAX_LENGTH}`}
        liveHint
      />
      <ErrorLine error={error} />
    </Dialog>
  );
}
