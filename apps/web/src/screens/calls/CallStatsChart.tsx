import { formatSuccessRate } from '@mate/contracts';

export interface CallStatsChartProps {
  totalCalls: number;
  completedCalls: number;
  successRate: number;
}

const SIZE = 120;
const STROKE = 18;
const RADIUS = (SIZE - STROKE) / 2;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/** The one sentence the chart says, for screen readers and as its caption. */
export function callStatsSummary({ totalCalls, completedCalls, successRate }: CallStatsChartProps): string {
  const other = Math.max(0, totalCalls - completedCalls);
  return `${completedCalls} completed and ${other} not completed of ${totalCalls} ${totalCalls === 1 ? 'call' : 'calls'} (${formatSuccessRate(successRate)} success rate)`;
}

/**
 * The statistics drawn as a ring: completed calls against the rest (missed, rejected, failed,
 * in progress). The picture is decorative for assistive technology; the caption says the same.
 */
export function CallStatsChart(props: CallStatsChartProps) {
  const { totalCalls, completedCalls } = props;
  const share = totalCalls > 0 ? Math.min(1, Math.max(0, completedCalls / totalCalls)) : 0;
  const completedLength = share * CIRCUMFERENCE;
  const summary = callStatsSummary(props);
  return (
    <figure className="call-stats-chart" aria-label="Completed calls chart">
      <svg
        className="call-stats-chart__ring"
        width={SIZE}
        height={SIZE}
        viewBox={`0 0 ${SIZE} ${SIZE}`}
        aria-hidden="true"
        focusable="false"
      >
        <circle className="call-stats-chart__other" cx={SIZE / 2} cy={SIZE / 2} r={RADIUS} strokeWidth={STROKE} fill="none" />
        {completedLength > 0 && (
          <circle
            className="call-stats-chart__completed"
            data-testid="completed-arc"
            cx={SIZE / 2}
            cy={SIZE / 2}
            r={RADIUS}
            strokeWidth={STROKE}
            fill="none"
            strokeDasharray={`${completedLength} ${CIRCUMFERENCE}`}
            transform={`rotate(-90 ${SIZE / 2} ${SIZE / 2})`}
          />
        )}
      </svg>
      <figcaption className="call-stats-chart__caption">
        <ul className="call-stats-chart__legend">
          <li>
            <span className="call-stats-chart__swatch call-stats-chart__swatch--completed" aria-hidden="true" />
            Completed
          </li>
          <li>
            <span className="call-stats-chart__swatch call-stats-chart__swatch--other" aria-hidden="true" />
            Not completed
          </li>
        </ul>
        <p className="call-stats-chart__summary">{summary}</p>
      </figcaption>
    </figure>
  );
}
