import { AdminMessages } from '@mate/api-client';
import type { AdminReportDto } from '@mate/contracts';
import { Spinner } from '@mate/ui';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import { formatDateTime, messageOf } from '../../lib/format';

/** The reported member's profile fields worth reading, in this order, when the snapshot has them. */
const PROFILE_FIELDS: [key: string, label: string][] = [
  ['name', 'Name'],
  ['age', 'Age'],
  ['gender', 'Gender'],
  ['location', 'Location'],
  ['bio', 'Bio'],
];

/**
 * What safety-service kept when the report was made (GET /admin/reports/{id}): the reported
 * profile as it was and the last messages between the two. Loaded when opened.
 */
export function ReportEvidence({ report }: { report: AdminReportDto }) {
  const { admin } = useApi();
  const detail = useQuery({ queryKey: ['admin', 'report', report.id], queryFn: () => admin.getReport(report.id) });

  if (detail.isPending) {
    return (
      <div className="admin-loading">
        <Spinner size="sm" />
        <p>Loading evidence...</p>
      </div>
    );
  }
  if (detail.error) return <p className="report-evidence__error">{messageOf(detail.error, AdminMessages.getReportFailed)}</p>;

  const { reportedProfile, messagesStatus, messages } = detail.data.snapshot;
  const profileRows = PROFILE_FIELDS.filter(([key]) => {
    const value = reportedProfile?.[key];
    return value !== null && value !== undefined && String(value).trim() !== '';
  });
  const senderName = (senderId: string) =>
    senderId === report.reporterId
      ? (report.reporterName ?? 'Reporter')
      : senderId === report.reportedUserId
        ? (report.reportedUserName ?? 'Reported user')
        : 'Unknown User';

  return (
    <div className="report-evidence">
      <h4>Reported profile (when reported)</h4>
      {profileRows.length > 0 ? (
        <dl className="detail-fields">
          {profileRows.map(([key, label]) => (
            <div key={key} className="detail-field">
              <dt>{label}</dt>
              <dd>{String(reportedProfile?.[key])}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="admin-muted">No profile was kept.</p>
      )}
      <h4>Last messages</h4>
      {messagesStatus === 'pending' ? (
        <p className="admin-muted">The messages are still being collected.</p>
      ) : messages.length === 0 ? (
        <p className="admin-muted">No messages between them.</p>
      ) : (
        <ol className="report-evidence__messages">
          {messages.map((message) => (
            <li key={message.id}>
              <span className="report-evidence__sender">{senderName(message.senderId)}</span>{' '}
              <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
              <p>{message.content}</p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
