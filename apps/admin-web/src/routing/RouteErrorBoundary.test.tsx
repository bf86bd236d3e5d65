import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { signedInAdminApi } from '../testing/fake-api';
import { renderAdmin } from '../testing/render';
import { ROUTE_ERROR_TEXT } from '@mate/ui';

const failure = vi.hoisted(() => ({ throwing: true }));

// A screen that fails while rendering, to reach its route's boundary.
vi.mock('../screens/analytics/AnalyticsScreen', () => ({
  AnalyticsScreen: () => {
    if (failure.throwing) throw new Error('chart exploded');
    return <h1>Analytics</h1>;
  },
}));

describe('route error boundaries (spec 001 §2)', () => {
  it('shows the route-specific title, the text, Try Again and Go Home', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = signedInAdminApi();
    renderAdmin(api, { route: '/admin/analytics' });
    expect(await screen.findByRole('heading', { name: 'Analytics Error' })).toBeInTheDocument();
    expect(screen.getByText(ROUTE_ERROR_TEXT)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go Home' })).toBeInTheDocument();

    failure.throwing = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', { name: 'Analytics' })).toBeInTheDocument();
  });
});
