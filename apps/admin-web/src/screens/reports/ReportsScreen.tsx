import { AdminMessages } from '@mate/api-client';
import { ADMIN_REPORTS_PAGE_SIZE, type ReportStatusFilter } from '@mate/contracts';
import { Button, Card, PageHeader } from '@mate/ui';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ErrorCard } from '../../components/ErrorCard';
import { ReportFilters, ReportList } from '../../components/reports/ReportList';
import { useReportsPage } from '../../components/reports/useReports';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { count, messageOf } from '../../lib/format';
import { filterOf, pageOf, reportsScreenPath } from './reports-route';

const BACK = { to: '/admin', label: 'Back to Dashboard' };

function summary(total: number, filter: ReportStatusFilter): string {
  const kind = filter === 'all' ? '' : `${filter} `;
  return `${count(total)} ${kind}${total === 1 ? 'report' : 'reports'}`;
}

/**
 * `/admin/reports` (issue 25): every report, 20 a page (spec 001 §9), with the dashboard's
 * filters, items and actions. The filter and page live in the address; a new filter starts on
 * page 1, and a page emptied by the last decisions on it gives way to the last page there is.
 */
export function ReportsScreen() {
  useDocumentTitle('User Reports');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const filter = filterOf(search);
  const page = pageOf(search);
  const reports = useReportsPage(filter, page);
  const total = reports.data?.total ?? null;
  const pages = total === null ? null : Math.max(1, Math.ceil(total / ADMIN_REPORTS_PAGE_SIZE));

  const go = (nextFilter: ReportStatusFilter, nextPage: number) => void navigate(reportsScreenPath(nextFilter, nextPage));

  useEffect(() => {
    if (pages !== null && page > pages) void navigate(reportsScreenPath(filter, pages), { replace: true });
  }, [navigate, filter, page, pages]);

  return (
    <div className="admin-screen">
      <PageHeader back={BACK} title="User Reports" subtitle="Every report members have made, newest first" />
      {reports.error && !reports.data ? (
        <ErrorCard message={messageOf(reports.error, AdminMessages.getReportsFailed)} />
      ) : (
        <Card className="admin-reports">
          <ReportFilters value={filter} onChange={(next) => go(next, 1)} />
          {total !== null && <p className="admin-reports__summary">{summary(total, filter)}</p>}
          <ReportList filter={filter} reports={reports.data?.reports} />
          <nav className="pager" aria-label="Report pages">
            <Button variant="secondary" disabled={page <= 1} onClick={() => go(filter, page - 1)}>
              Previous
            </Button>
            <span className="pager__status" aria-live="polite">
              {pages === null ? `Page ${page}` : `Page ${page} of ${pages}`}
            </span>
            <Button variant="secondary" disabled={!reports.data?.hasMore} onClick={() => go(filter, page + 1)}>
              Next
            </Button>
          </nav>
        </Card>
      )}
    </div>
  );
}
