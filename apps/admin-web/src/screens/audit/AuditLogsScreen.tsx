import { AUDIT_ACTIONS, AUDIT_ACTION_LABELS, AUDIT_OUTCOME_REFUSED, AUDIT_PAGE_SIZE, AUDIT_SEARCH_MAX_LENGTH, type AuditLogEntryDto, type AuditPersonDto } from '@mate/contracts';
import { Badge, Button, Card, Input, Select, Spinner, PageHeader } from '@mate/ui';
import { useState, type FormEvent } from 'react';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { formatDateTime } from '../../lib/format';
import { auditActionLabel } from '../../lib/labels';
import { NO_AUDIT_FILTERS, useAuditLogs, type AuditFilters } from './useAuditLogs';

const BACK = { to: '/admin', label: 'Back to Dashboard' };
const ACTION_OPTIONS = AUDIT_ACTIONS.map((action) => ({ value: action, label: AUDIT_ACTION_LABELS[action] }));

function who(person: AuditPersonDto | null): string {
  if (!person) return 'N/A';
  // A deleted target has no name left; a deleted admin keeps the one they acted under.
  const name = person.name ?? (person.deleted ? 'Deleted member' : 'Unknown User');
  const named = person.email ? `${name} (${person.email})` : name;
  return person.deleted && person.name ? `${named}, account deleted` : named;
}

function refused(entry: AuditLogEntryDto): boolean {
  return entry.details.outcome === AUDIT_OUTCOME_REFUSED;
}

function AuditEntry({ entry }: { entry: AuditLogEntryDto }) {
  return (
    <li className="audit-entry">
      <div className="audit-entry__head">
        <Badge tone="accent">{auditActionLabel(entry.action)}</Badge>
        {refused(entry) && <Badge tone="warning">Refused</Badge>}
        <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
      </div>
      <p className="audit-entry__line">
        <span className="audit-entry__label">Admin:</span> <span>{who(entry.admin)}</span>
      </p>
      {entry.targetUser && (
        <p className="audit-entry__line">
          <span className="audit-entry__label">Target:</span> <span>{who(entry.targetUser)}</span>
        </p>
      )}
      <details className="audit-entry__details">
        <summary>Details</summary>
        <dl className="detail-fields">
          <div className="detail-field">
            <dt>Resource</dt>
            <dd>
              {entry.targetResourceType} {entry.targetResourceId}
            </dd>
          </div>
          <div className="detail-field">
            <dt>IP Address</dt>
            <dd>{entry.ipAddress ?? 'N/A'}</dd>
          </div>
          <div className="detail-field">
            <dt>User Agent</dt>
            <dd>{entry.userAgent ?? 'N/A'}</dd>
          </div>
        </dl>
        <pre className="audit-entry__json">{JSON.stringify(entry.details, null, 2)}</pre>
      </details>
    </li>
  );
}

/** `/admin/audit` (spec 001 §2 Audit logs). */
export function AuditLogsScreen() {
  useDocumentTitle('Audit Logs');
  const [draft, setDraft] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  const [applied, setApplied] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  const [page, setPage] = useState(0);
  const logs = useAuditLogs(applied, page);

  const change = (key: keyof AuditFilters, value: string) => setDraft((current) => ({ ...current, [key]: value }));
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Spec 001 §4: changing a filter resets to page 1.
    setApplied(draft);
    setPage(0);
  };

  const total = logs.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  const entries = logs.data?.logs ?? [];

  return (
    <div className="admin-screen">
      <PageHeader back={BACK} title="Audit Logs" subtitle="Every moderation action, newest first" />

      <Card>
        <form className="audit-filters" onSubmit={apply} aria-label="Audit log filters">
          <Input
            label="Search"
            type="search"
            placeholder="Admin, user, resource or details"
            maxLength={AUDIT_SEARCH_MAX_LENGTH}
            value={draft.search}
            onChange={(event) => change('search', event.target.value)}
          />
          <Select
            label="Action"
            options={ACTION_OPTIONS}
            placeholder="All Actions"
            value={draft.action}
            onChange={(event) => change('action', event.target.value)}
          />
          <Input label="Start date" type="date" value={draft.startDate} onChange={(event) => change('startDate', event.target.value)} />
          <Input label="End date" type="date" value={draft.endDate} onChange={(event) => change('endDate', event.target.value)} />
          <Button type="submit">Apply Filters</Button>
        </form>
      </Card>

      <Card>
        {logs.isPending ? (
          <div className="admin-loading">
            <Spinner size="sm" />
            <p>Loading audit logs...</p>
          </div>
        ) : entries.length === 0 ? (
          <p className="admin-empty">No audit logs found</p>
        ) : (
          <ul className="audit-list">
            {entries.map((entry) => (
              <AuditEntry key={entry.id} entry={entry} />
            ))}
          </ul>
        )}
        <nav className="pager" aria-label="Audit log pages">
          <Button variant="secondary" disabled={page === 0} onClick={() => setPage((p) => Math.max(0, p - 1))}>
            Previous
          </Button>
          <span className="pager__status">
            Page {page + 1} of {pages}
          </span>
          <Button variant="secondary" disabled={page + 1 >= pages} onClick={() => setPage((p) => p + 1)}>
            Next
          </Button>
        </nav>
      </Card>
      <p className="admin-footer-note">Audit logs auto-refresh every 30 seconds.</p>
    </div>
  );
}
