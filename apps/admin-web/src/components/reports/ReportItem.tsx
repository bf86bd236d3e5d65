import type { AdminReportDto, ReportResolutionStatus } from '@mate/contracts';
import { Badge, Button, Textarea, buttonClassName } from '@mate/ui';
import { REPORT_RESOLUTION_MAX_LENGTH } from '@mate/contracts';
import { useId, useState } from 'react';
import { ReportEvidence } from './ReportEvidence';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../lib/format';
import { capitalize, reasonLabel, statusBadgeTone } from '../../lib/labels';

export interface ReportItemProps {
  report: AdminReportDto;
  busy: boolean;
  onResolve(status: ReportResolutionStatus, resolution: string): void;
}

function person(name: string | null, email: string | null): string {
  const shown = name ?? 'Unknown User';
  return email ? `${shown} (${email})` : shown;
}

export function ReportItem({ report, busy, onResolve }: ReportItemProps) {
  const [note, setNote] = useState('');
  const [evidenceOpen, setEvidenceOpen] = useState(false);
  const titleId = useId();
  const pending = report.status === 'pending';
  return (
    <li className="report-item" aria-labelledby={titleId}>
      <div className="report-item__head">
        <h3 id={titleId} className="report-item__reason">
          {reasonLabel(report.reason)}
        </h3>
        <Badge tone={statusBadgeTone(report.status)}>{capitalize(report.status)}</Badge>
      </div>
      <dl className="report-item__facts">
        <div>
          <dt>Reported user</dt>
          <dd>{person(report.reportedUserName, report.reportedUserEmail)}</dd>
        </div>
        <div>
          <dt>Reported by</dt>
          <dd>{person(report.reporterName, report.reporterEmail)}</dd>
        </div>
        <div>
          <dt>Reported</dt>
          <dd>{formatDateTime(report.createdAt)}</dd>
        </div>
        {report.details && (
          <div>
            <dt>Details</dt>
            <dd>{report.details}</dd>
          </div>
        )}
        {report.resolution && (
          <div>
            <dt>Resolution</dt>
            <dd>{report.resolution}</dd>
          </div>
        )}
      </dl>
      <details className="report-item__evidence" onToggle={(event) => setEvidenceOpen(event.currentTarget.open)}>
        <summary>Evidence</summary>
        {evidenceOpen && <ReportEvidence report={report} />}
      </details>
      {pending && (
        <Textarea
          label="Note (optional)"
          rows={2}
          maxLength={REPORT_RESOLUTION_MAX_LENGTH}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
      )}
      <div className="report-item__actions">
        <Link to={`/admin/users/${encodeURIComponent(report.reportedUserId)}`} className={buttonClassName({ variant: 'secondary' })}>
          View User
        </Link>
        {pending && (
          <>
            <Button disabled={busy} onClick={() => onResolve('reviewed', note)}>
              Mark Reviewed
            </Button>
            <Button variant="ghost" disabled={busy} onClick={() => onResolve('dismissed', note)}>
              Dismiss
            </Button>
          </>
        )}
      </div>
    </li>
  );
}
