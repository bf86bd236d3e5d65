import { displayMessage, isApiError } from '@mate/api-client';
import { CALL_HISTORY_PAGE_SIZE, CallMessages, CallTexts, formatCallTimer, formatSuccessRate } from '@mate/contracts';
import { Alert, Button, Card, Chip, EmptyState, Icon, Spinner, buttonClassName, PageHeader } from '@mate/ui';
import { Suspense, lazy, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { rowPictureLoading } from '../../lib/row-picture';
import { CALL_FILTERS, callRowView, type CallFilter } from './call-history';
import { CallRow } from './CallRow';
import { useCallBack } from './useCallBack';
import { useCallHistoryPage, useCallStats } from './useCallHistory';
import './call-history.css';

/**
 * `/calls` (spec 000 §2 Call history, §7, §9): the statistics card (also drawn as a chart), filter
 * buttons, the list, and Previous / Next with 'Page N'. The server filters the whole history
 * (issue 25), so each filter has its own pages and a new filter starts at Page 1. Pages hold 20
 * calls; Next is enabled only when the page came back full and the server has more. Each row can
 * call the member back.
 */
export function CallHistoryScreen() {
  const { user } = useAuth();
  const [page, setPage] = useState(0);
  const [filter, setFilter] = useState<CallFilter>('all');
  const history = useCallHistoryPage(filter, page);
  const callBack = useCallBack();
  useDocumentTitle(CallTexts.historyTitle);

  const chooseFilter = (value: CallFilter) => {
    setFilter(value);
    setPage(0);
  };

  const calls = history.data?.calls ?? [];
  const shown = calls.map((call) => callRowView(call, user?.id));
  // While another page loads, the one on screen stays (keepPreviousData) and paging waits.
  const loadingPage = history.isPlaceholderData && history.isFetching;
  const canGoBack = page > 0 && !loadingPage;
  // Spec 000 §9: only a full page can have a next one; the server also says whether one exists, so
  // a filter's last page never leads to an empty one.
  const canGoOn =
    calls.length === CALL_HISTORY_PAGE_SIZE && history.data?.hasMore !== false && !history.isError && !loadingPage;

  return (
    <div className="screen screen--medium call-history">
      <PageHeader title={CallTexts.historyTitle} back={{ to: '/dashboard', label: 'Back to Dashboard' }} />

      <CallStatsCard />

      <div className="call-history__filters" role="group" aria-label="Filter calls">
        {CALL_FILTERS.map(({ value, label }) => (
          <Chip key={value} selected={filter === value} onClick={() => chooseFilter(value)}>
            {label}
          </Chip>
        ))}
      </div>

      {history.isPending ? (
        <Card className="call-history__placeholder">
          <Spinner label="Loading call history..." showLabel />
        </Card>
      ) : history.isError ? (
        <Alert tone="error" title={CallMessages.loadHistoryFailed}>
          {isApiError(history.error) && history.error.serverMessage}
          <div className="alert-actions">
            <Button variant="secondary" onClick={() => void history.refetch()}>
              Try Again
            </Button>
          </div>
        </Alert>
      ) : calls.length === 0 && filter !== 'all' && page === 0 ? (
        <Card className="call-history__placeholder">
          <EmptyState
            icon={<Icon name="filter" size={32} />}
            title="No calls match this filter"
            description="Try another filter."
          />
        </Card>
      ) : calls.length === 0 ? (
        <Card className="call-history__placeholder">
          <EmptyState
            icon={<Icon name="video" size={32} />}
            title={page === 0 ? 'No calls yet' : 'No more calls'}
            description={
              page === 0 ? 'Start a video call from a chat with one of your matches.' : 'There are no calls on this page.'
            }
            action={
              page === 0 ? (
                <Link to="/matches" className={buttonClassName()}>
                  <Icon name="messages" size={18} />
                  Go to Messages
                </Link>
              ) : undefined
            }
          />
        </Card>
      ) : (
        <>
          {callBack.error && <Alert tone="error" title={callBack.error} />}
          <Card as="div" className="call-history__card">
            <ul className="call-history__list" aria-label="Calls" aria-busy={loadingPage || undefined}>
              {shown.map((call, index) => (
                <CallRow
                  key={call.id}
                  call={call}
                  pictureLoading={rowPictureLoading(index)}
                  onCallBack={(userId, name) => void callBack.callBack(userId, name)}
                  callBackBusy={callBack.startingWith !== null}
                  callingBack={callBack.startingWith === call.otherId}
                />
              ))}
            </ul>
          </Card>
        </>
      )}

      <nav className="call-history__pager" aria-label="Call history pages">
        <Button
          variant="secondary"
          icon={<Icon name="arrow-left" size={18} />}
          disabled={!canGoBack}
          onClick={() => setPage((n) => Math.max(0, n - 1))}
        >
          {CallTexts.previous}
        </Button>
        <span className="call-history__page" aria-live="polite">
          {CallTexts.page(page + 1)}
        </span>
        <Button variant="secondary" disabled={!canGoOn} onClick={() => setPage((n) => n + 1)}>
          {CallTexts.next}
          <Icon name="arrow-right" size={18} />
        </Button>
      </nav>
    </div>
  );
}

/** recharts is large: its chunk loads only when a member with calls opens this screen. */
const CallStatsChart = lazy(() => import('./CallStatsChart').then((module) => ({ default: module.CallStatsChart })));

const STAT_LABELS = {
  total: 'Total Calls',
  completed: 'Completed',
  rate: 'Success Rate',
  average: 'Avg Duration',
} as const;

/** Spec 000 §2 statistics card: totals, the success rate to 1 decimal, the average duration (mm:ss). */
function CallStatsCard() {
  const stats = useCallStats();
  const data = stats.data;
  const values: Record<keyof typeof STAT_LABELS, string | undefined> = {
    total: data ? String(data.totalCalls) : undefined,
    completed: data ? String(data.completedCalls) : undefined,
    rate: data ? formatSuccessRate(data.successRate) : undefined,
    average: data ? formatCallTimer(data.averageDurationSeconds) : undefined,
  };
  return (
    <Card title="Call Statistics" icon={<Icon name="chart" size={20} />} className="call-stats">
      <div className="call-stats__body">
        <dl className="call-stats__numbers">
          {(Object.keys(STAT_LABELS) as Array<keyof typeof STAT_LABELS>).map((key) => (
            <div key={key} className="call-stats__number">
              <dt>{STAT_LABELS[key]}</dt>
              <dd>
                {values[key] !== undefined ? (
                  values[key]
                ) : stats.isPending ? (
                  <Spinner size="sm" label={`Loading ${STAT_LABELS[key].toLowerCase()}...`} />
                ) : (
                  <span aria-label="Not available">—</span>
                )}
              </dd>
            </div>
          ))}
        </dl>
        {data && data.totalCalls > 0 && (
          <Suspense fallback={<Spinner size="sm" label="Loading chart..." />}>
            <CallStatsChart
              totalCalls={data.totalCalls}
              completedCalls={data.completedCalls}
              successRate={data.successRate}
            />
          </Suspense>
        )}
      </div>
      {stats.isError && (
        <p className="call-stats__error" role="alert">
          {displayMessage(stats.error, CallMessages.statsFailed)}
        </p>
      )}
    </Card>
  );
}
