import { DEFAULT_REPORT_STATUS_FILTER, type ReportStatusFilter } from '@mate/contracts';
import { AdminMessages } from '@mate/api-client';
import { Button, Card, Icon, buttonClassName, PageHeader } from '@mate/ui';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useApi } from '../../api/ApiContext';
import { useBrowser } from '../../browser/AdminBrowser';
import { ErrorCard } from '../../components/ErrorCard';
import { StatCard } from '../../components/StatCard';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { ReportFilters, ReportList } from '../../components/reports/ReportList';
import { count, messageOf } from '../../lib/format';
import { reasonLabel } from '../../lib/labels';
import { reportsScreenPath } from '../reports/reports-route';
import { useAdminStats, useDashboardReports } from './useDashboard';

/** `/admin` (spec 001 §2 Admin dashboard). */
export function DashboardScreen() {
  useDocumentTitle('Admin Dashboard');
  const [filter, setFilter] = useState<ReportStatusFilter>(DEFAULT_REPORT_STATUS_FILTER);
  const stats = useAdminStats();
  const reports = useDashboardReports(filter);
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
            <ReportFilters value={filter} onChange={setFilter} />
            <ReportList filter={filter} reports={reports.data?.reports} />
            {reports.data && reports.data.total !== 0 && (
              <Link to={reportsScreenPath(filter)} className={`${buttonClassName({ variant: 'ghost' })} admin-reports__all`}>
                View all reports{reports.data.total === null ? '' : ` (${count(reports.data.total)})`}
                <Icon name="arrow-right" size={18} />
              </Link>
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
