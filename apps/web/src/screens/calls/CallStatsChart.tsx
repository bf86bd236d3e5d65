import { formatSuccessRate } from '@mate/contracts';
import { Cell, Pie, PieChart } from 'recharts';
import './call-stats-chart.css';

export interface CallStatsChartProps {
  totalCalls: number;
  completedCalls: number;
  successRate: number;
}

const SIZE = 120;
const COMPLETED_COLOR = 'var(--mate-success)';
const OTHER_COLOR = 'var(--mate-accent-soft)';

/** The one sentence the chart says, for screen readers and as its caption. */
export function callStatsSummary({ totalCalls, completedCalls, successRate }: CallStatsChartProps): string {
  const other = Math.max(0, totalCalls - completedCalls);
  return `${completedCalls} completed and ${other} not completed of ${totalCalls} ${totalCalls === 1 ? 'call' : 'calls'} (${formatSuccessRate(successRate)} success rate)`;
}

/**
 * The statistics drawn with recharts as a ring: completed calls against the rest (missed,
 * rejected, failed, in progress). The picture is hidden from assistive technology; the caption
 * says the same in words. recharts makes the pie a keyboard stop (tabindex 0) for its tooltip
 * navigation: a focus stop inside aria-hidden content announces nothing (axe aria-hidden-focus),
 * so the pie leaves the tab order and the drawing is inert (nothing in it takes focus).
 */
export function CallStatsChart(props: CallStatsChartProps) {
  const { totalCalls, completedCalls } = props;
  const completed = Math.min(Math.max(0, completedCalls), totalCalls);
  const data = [
    { name: 'Completed', value: completed, color: COMPLETED_COLOR },
    { name: 'Not completed', value: Math.max(0, totalCalls - completed), color: OTHER_COLOR },
  ];
  return (
    <figure className="call-stats-chart" aria-label="Completed calls chart">
      <div className="call-stats-chart__ring" aria-hidden="true" inert data-testid="call-stats-pie">
        <PieChart width={SIZE} height={SIZE} accessibilityLayer={false}>
          <Pie
            data={data}
            dataKey="value"
            nameKey="name"
            innerRadius={38}
            outerRadius={58}
            startAngle={90}
            endAngle={-270}
            stroke="none"
            isAnimationActive={false}
            rootTabIndex={-1}
          >
            {data.map((slice) => (
              <Cell key={slice.name} fill={slice.color} />
            ))}
          </Pie>
        </PieChart>
      </div>
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
        <p className="call-stats-chart__summary">{callStatsSummary(props)}</p>
      </figcaption>
    </figure>
  );
}
