import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CallStatsChart, callStatsSummary } from './CallStatsChart';

describe('CallStatsChart', () => {
  it('says in words what it draws: completed against the rest, with the rate to 1 decimal', () => {
    expect(callStatsSummary({ totalCalls: 1, completedCalls: 1, successRate: 1 })).toBe(
      '1 completed and 0 not completed of 1 call (100.0% success rate)',
    );
    expect(callStatsSummary({ totalCalls: 6, completedCalls: 1, successRate: 1 / 6 })).toBe(
      '1 completed and 5 not completed of 6 calls (16.7% success rate)',
    );
  });

  it('is a labelled figure whose caption carries the summary; the drawing is hidden from assistive technology', () => {
    const { container } = render(<CallStatsChart totalCalls={4} completedCalls={3} successRate={0.75} />);
    const figure = screen.getByRole('figure', { name: 'Completed calls chart' });
    expect(figure).toHaveTextContent('3 completed and 1 not completed of 4 calls (75.0% success rate)');
    expect(figure).toHaveTextContent('Completed');
    expect(figure).toHaveTextContent('Not completed');
    // recharts draws the ring: one sector per slice, inside a part hidden from assistive technology.
    const drawing = container.querySelector('.call-stats-chart__ring');
    expect(drawing).toHaveAttribute('aria-hidden', 'true');
    expect(drawing?.querySelectorAll('.recharts-pie-sector')).toHaveLength(2);
  });

  it('keeps every focus stop out of the hidden drawing, and its numbers in text outside it (axe aria-hidden-focus)', () => {
    const { container } = render(<CallStatsChart totalCalls={5} completedCalls={2} successRate={0.4} />);
    const hidden = [...container.querySelectorAll('[aria-hidden="true"]')];
    expect(hidden.length).toBeGreaterThan(0);
    const focusable = hidden.flatMap((part) => [
      ...part.querySelectorAll(
        'a[href], button, input, select, textarea, iframe, [contenteditable=""], [contenteditable="true"], [tabindex]:not([tabindex^="-"])',
      ),
    ]);
    expect(focusable.map((el) => el.outerHTML.slice(0, 80))).toEqual([]);
    // What recharts still marks tabindex="-1" cannot take focus either: the drawing is inert.
    expect(container.querySelector('.call-stats-chart__ring')).toHaveAttribute('inert');
    const figure = screen.getByRole('figure', { name: 'Completed calls chart' });
    const summary = screen.getByText('2 completed and 3 not completed of 5 calls (40.0% success rate)');
    expect(figure).toContainElement(summary);
    expect(summary.closest('[aria-hidden="true"]')).toBeNull();
  });
});
