import { ApiError } from '@mate/api-client';
import { DEFAULT_PREFERENCES } from '@mate/contracts';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signedInApi, type FakeApi } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';

describe('PreferencesScreen', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = signedInApi();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the ages, the distance slider and the gender toggles, with the hint when none is chosen', async () => {
    const user = userEvent.setup();
    api.preferences.getMine.mockResolvedValue({ ...DEFAULT_PREFERENCES });
    renderWithApp(api, { route: '/preferences' });

    const minAge = await screen.findByLabelText('Minimum age');
    expect(minAge).toHaveValue(18);
    expect(minAge).toHaveAttribute('min', '18');
    expect(minAge).toHaveAttribute('max', '99');
    expect(screen.getByLabelText('Maximum age')).toHaveValue(99);
    const distance = screen.getByRole('slider', { name: 'Maximum distance' });
    expect(distance).toHaveValue('50');
    expect(distance).toHaveAttribute('min', '1');
    expect(distance).toHaveAttribute('max', '200');
    expect(screen.getByText('50 km')).toBeInTheDocument();

    const group = screen.getByRole('group', { name: 'Interested in' });
    expect(group).toHaveAccessibleDescription('Select at least one');
    for (const name of ['Male', 'Female', 'Non-binary', 'Other']) {
      expect(screen.getByRole('button', { name, pressed: false })).toBeInTheDocument();
    }
    await user.click(screen.getByRole('button', { name: 'Female' }));
    expect(screen.getByRole('button', { name: 'Female', pressed: true })).toBeInTheDocument();
    expect(screen.queryByText('Select at least one')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Female' }));
    expect(screen.getByText('Select at least one')).toBeInTheDocument();
  });

  it("saves the whole object and shows 'Preferences saved successfully!' for 3 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    api.preferences.getMine.mockResolvedValue({ ...DEFAULT_PREFERENCES, interests: ['Art'] });
    api.preferences.updateMine.mockImplementation((prefs) => Promise.resolve(prefs));
    renderWithApp(api, { route: '/preferences' });

    const minAge = await screen.findByLabelText('Minimum age');
    await user.clear(minAge);
    await user.type(minAge, '25');
    fireEvent.change(screen.getByRole('slider', { name: 'Maximum distance' }), { target: { value: '120' } });
    await user.click(screen.getByRole('button', { name: 'Male' }));
    // Not enforced: saving with or without a gender both work.
    await user.click(screen.getByRole('button', { name: 'Save Preferences' }));

    expect(api.preferences.updateMine).toHaveBeenCalledWith({
      minAge: 25,
      maxAge: 99,
      maxDistance: 120,
      genderPreference: ['male'],
      interests: ['Art'],
      dealbreakers: [],
    });
    expect(await screen.findByText('Preferences saved successfully!')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(2900);
    });
    expect(screen.getByText('Preferences saved successfully!')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByText('Preferences saved successfully!')).not.toBeInTheDocument();
  });

  it("says 'Failed to save preferences' when saving fails", async () => {
    const user = userEvent.setup();
    api.preferences.getMine.mockResolvedValue({ ...DEFAULT_PREFERENCES });
    api.preferences.updateMine.mockRejectedValue(new ApiError('Failed to update preferences', 500));
    renderWithApp(api, { route: '/preferences' });
    await user.click(await screen.findByRole('button', { name: 'Save Preferences' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to save preferences');
  });

  it('refuses ages outside 18–99 or a minimum above the maximum', async () => {
    const user = userEvent.setup();
    api.preferences.getMine.mockResolvedValue({ ...DEFAULT_PREFERENCES });
    renderWithApp(api, { route: '/preferences' });
    const minAge = await screen.findByLabelText('Minimum age');
    await user.clear(minAge);
    await user.type(minAge, '17');
    await user.click(screen.getByRole('button', { name: 'Save Preferences' }));
    expect(screen.getByText('Enter an age between 18 and 99')).toBeInTheDocument();
    await user.clear(minAge);
    await user.type(minAge, '50');
    await user.clear(screen.getByLabelText('Maximum age'));
    await user.type(screen.getByLabelText('Maximum age'), '40');
    await user.click(screen.getByRole('button', { name: 'Save Preferences' }));
    expect(screen.getByText('Minimum age cannot be greater than maximum age')).toBeInTheDocument();
    await waitFor(() => expect(api.preferences.updateMine).not.toHaveBeenCalled());
  });
});
