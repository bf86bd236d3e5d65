import { REPORT_STATUS_FILTERS, DEFAULT_REPORT_STATUS_FILTER, type ReportStatusFilter } from '@mate/contracts';
import { AdminMessages } from '@mate/api-client';
import { Button, Card, Icon, Spinner, buttonClassName, PageHeader } from '@mate/ui';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useApi } from '../../api/ApiContext';
import { useBrowser } from '../../browser/AdminBrowser';
import { ErrorCard } from '../../components/ErrorCard';
import { StatCard } from '../../components/StatCard';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { count, messageOf } from '../../lib/format';
import { capitalize, reasonLabel } from '../../lib/labels';
import { ReportItem } from './ReportItem';
import { useAdminStats, useDashboardReports, useResolveReport } from './useDashboard';

/** `/admin` (spec 001 §2 Admin dashboard). */
export function DashboardScreen() {
  useDocumentTitle('Admin Dashboard');
  const [filter, setFilter] = useState<ReportStatusFilter>(DEFAULT_REPORT_STATUS_FILTER);
  const stats = useAdminStats();
  const reports = useDashboardReports(filter);
  const resolve = useResolveReport();
  const browser = useBrowser();
  const { admin } = useApi();
  const [openingQueues, setOpeningQueues] = useState(false);

  const loadError = stats.error ?? reports.error;

  const openQueueDashboard = async () => {
    setOpeningQueues(true);
    try {
      const { url } = await admin.createQueueDashboardSession();
      browser.open(admin.apiUrl(url));
    } catch (error) {
      browser.alert(messageOf(error, AdminMessages.requestFailed));
    } finally {
      setOpeningQueues(false);
    }
  };

  return (
    <div className="admin-screen">
      <PageHeader
        title="Admin Dashboard"
        subtitle="Platform moderation and management"
        actions={
          <div className="admin-actions">
            <Link to="/admin/photos" className={buttonClassName({ variant: 'primary' })}>
              <Icon name="camera" size={18} />
              Photo Moderation
            </Link>
            <Link to="/admin/analytics" className={buttonClassName({ variant: 'secondary' })}>
              <Icon name="chart" size={18} />
              View Analytics
            </Link>
            <Link to="/admin/audit" className={buttonClassName({ variant: 'secondary' })}>
              <Icon name="shield" size={18} />
              Audit Logs
            </Link>
            <Button variant="ghost" loading={openingQueues} onClick={() => void openQueueDashboard()}>
              Queue Dashboard
            </Button>
          </div>
        }
      />
      <p className="admin-note">
        <Icon name="shield" size={16} /> All moderation actions are logged and reviewable by other administrators.
      </p>

      {loadError ? (
        <ErrorCard message={messageOf(loadError, AdminMessages.dashboardLoadFailed)} />
      ) : (
        <>
          <section className="stat-grid" aria-label="Statistics">
            <StatCard
              label="Total Users"
              icon="user"
              value={stats.data ? count(stats.data.users.total) : '…'}
              detail={stats.data ? `${count(stats.data.users.active)} active` : undefined}
            />
            <StatCard
              label="Reports"
              icon="flag"
              tone="warning"
              value={stats.data ? count(stats.data.reports.total) : '…'}
              detail={stats.data ? `${count(stats.data.reports.pending)} pending` : undefined}
            />
            <StatCard label="Total Matches" icon="heart" value={stats.data ? count(stats.data.matches.total) : '…'} />
            <StatCard label="Suspended" icon="ban" tone="danger" value={stats.data ? count(stats.data.users.suspended) : '…'} />
          </section>

          <Card title="User Reports" titleLevel={2} className="admin-reports">
            <div className="filter-buttons" role="group" aria-label="Report status">
              {REPORT_STATUS_FILTERS.map((value) => (
                <Button
                  key={value}
                  variant={filter === value ? 'primary' : 'secondary'}
                  aria-pressed={filter === value}
                  onClick={() => setFilter(value)}
                >
                  {capitalize(value)}
                </Button>
              ))}
            </div>
            {reports.isPending ? (
              <div className="admin-loading">
                <Spinner size="sm" />
                <p>Loading reports...</p>
              </div>
            ) : reports.data && reports.data.length > 0 ? (
              <ul className="report-list">
                {reports.data.map((report) => (
                  <ReportItem
                    key={report.id}
                    report={report}
                    busy={resolve.isPending}
                    onResolve={(status, resolution) =>
                      resolve.mutate(
                        { reportId: report.id, status, resolution },
                        { onError: (error) => browser.alert(messageOf(error, AdminMessages.updateReportFailed)) },
                      )
                    }
                  />
                ))}
              </ul>
            ) : (
              <p className="admin-empty">No {filter} reports found</p>
            )}
          </Card>

          {stats.data && stats.data.reports.byReason.length > 0 && (
            <Card title="Report Trends" titleLevel={2}>
              <ul className="trend-grid">
                {stats.data.reports.byReason.map(({ reason, count: n }) => (
                  <li key={reason} className="trend-grid__item">
                    <span className="trend-grid__count">{count(n)}</span>
                    <span className="trend-grid__label">{reasonLabel(reason)}</span>
                  </li>
                ))}
              </ul>
            </Card>
          )}
        </>
      )}
    </div>
  );
}
