import { AdminMessages } from '@mate/api-client';
import { REPORT_STATUS_FILTERS, type AdminReportDto, type ReportStatusFilter } from '@mate/contracts';
import { Button, Spinner } from '@mate/ui';
import { useBrowser } from '../../browser/AdminBrowser';
import { messageOf } from '../../lib/format';
import { capitalize } from '../../lib/labels';
import { ReportItem } from './ReportItem';
import { useResolveReport } from './useReports';

/** Spec 001 §2: All, Pending, Reviewed, Dismissed (the dashboard's and the reports screen's). */
export function ReportFilters({ value, onChange }: { value: ReportStatusFilter; onChange(filter: ReportStatusFilter): void }) {
  return (
    <div className="filter-buttons" role="group" aria-label="Report status">
      {REPORT_STATUS_FILTERS.map((filter) => (
        <Button key={filter} variant={value === filter ? 'primary' : 'secondary'} aria-pressed={value === filter} onClick={() => onChange(filter)}>
          {capitalize(filter)}
        </Button>
      ))}
    </div>
  );
}

export interface ReportListProps {
  filter: ReportStatusFilter;
  /** Undefined while loading. */
  reports: AdminReportDto[] | undefined;
}

/**
 * Reports with View User and, while pending, Mark Reviewed / Dismiss with the optional note
 * (spec 001 §2); the loading and empty texts of the spec. A failed change is alerted; every admin
 * view reloads after one.
 */
export function ReportList({ filter, reports }: ReportListProps) {
  const resolve = useResolveReport();
  const browser = useBrowser();
  if (!reports) {
    return (
      <div className="admin-loading">
        <Spinner size="sm" />
        <p>Loading reports...</p>
      </div>
    );
  }
  if (reports.length === 0) return <p className="admin-empty">No {filter} reports found</p>;
  return (
    <ul className="report-list">
      {reports.map((report) => (
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
  );
}
