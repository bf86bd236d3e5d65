import { ApiError } from '@mate/api-client';
import { DEFAULT_FILTER_PREFERENCES } from '@mate/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { signedInApi, type FakeApi } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';

describe('FiltersScreen', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = signedInApi();
    api.preferences.getFilters.mockResolvedValue({ ...DEFAULT_FILTER_PREFERENCES });
    api.preferences.getMine.mockResolvedValue({
      minAge: 18,
      maxAge: 99,
      maxDistance: 50,
      genderPreference: [],
      interests: [],
      dealbreakers: [],
    });
  });

  const openFromPreferences = () => renderWithApp(api, { route: '/settings/filters', history: ['/preferences'] });

  it('shows the sliders with their ranges and the option lists with the labels of spec 001', async () => {
    openFromPreferences();
    const minAge = await screen.findByRole('slider', { name: 'Minimum age' });
    expect(minAge).toHaveAttribute('min', '18');
    expect(minAge).toHaveAttribute('max', '99');
    expect(minAge).toHaveAttribute('step', '1');
    expect(screen.getByRole('slider', { name: 'Maximum distance' })).toHaveValue('50');
    expect(screen.getByRole('slider', { name: 'Minimum height' })).toHaveValue('140');
    expect(screen.getByRole('slider', { name: 'Maximum height' })).toHaveValue('220');
    expect(screen.getByText('An empty list means all.', { exact: false })).toBeInTheDocument();

    const labels = (name: string) =>
      within(screen.getByRole('group', { name })).getAllByRole('button').map((b) => b.textContent);
    expect(labels('Gender')).toEqual(['Man', 'Woman', 'Non-binary', 'Other']);
    expect(labels('Education')).toEqual([
      'High School',
      'Some College',
      'Associate Degree',
      "Bachelor's Degree",
      "Master's Degree",
      'Doctorate',
      'Other',
    ]);
    expect(labels('Relationship Goals')).toEqual(['Casual Dating', 'Long-term Relationship', 'Marriage', 'Friendship', 'Not Sure']);
    expect(labels('Smoking')).toEqual(['Never', 'Socially', 'Regularly', 'Prefer not to say']);
    expect(labels('Drinking')).toEqual(['Never', 'Socially', 'Regularly', 'Prefer not to say']);
    expect(labels('Exercise')).toEqual(['Never', 'Sometimes', 'Regularly', 'Daily']);
    expect(labels('Pets')).toEqual(['None', 'Dog', 'Cat', 'Other', 'Multiple']);
    expect(labels('Required Interests')).toHaveLength(18);
  });

  it('toggles values on and off and saves the whole object, height null when untouched', async () => {
    const user = userEvent.setup();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    api.preferences.updateFilters.mockImplementation((filters) => Promise.resolve(filters));
    openFromPreferences();

    const smoking = within(await screen.findByRole('group', { name: 'Smoking' }));
    expect(smoking.getByText('All')).toBeInTheDocument();
    await user.click(smoking.getByRole('button', { name: 'Never' }));
    await user.click(smoking.getByRole('button', { name: 'Prefer not to say' }));
    expect(smoking.getByText('2 selected')).toBeInTheDocument();
    await user.click(smoking.getByRole('button', { name: 'Never' }));
    expect(smoking.getByRole('button', { name: 'Never', pressed: false })).toBeInTheDocument();
    await user.click(within(screen.getByRole('group', { name: 'Education' })).getByRole('button', { name: "Master's Degree" }));
    await user.click(within(screen.getByRole('group', { name: 'Required Interests' })).getByRole('button', { name: 'Hiking' }));
    fireEvent.change(screen.getByRole('slider', { name: 'Maximum distance' }), { target: { value: '25' } });
    fireEvent.change(screen.getByRole('slider', { name: 'Minimum height' }), { target: { value: '160' } });

    await user.click(screen.getByRole('button', { name: 'Save Filters' }));
    expect(api.preferences.updateFilters).toHaveBeenCalledWith({
      ...DEFAULT_FILTER_PREFERENCES,
      maxDistance: 25,
      minHeight: 160,
      maxHeight: null,
      smokingPreference: ['prefer_not_to_say'],
      educationPreference: ['master'],
      requiredInterests: ['Hiking'],
    });
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Filter preferences saved successfully!'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/preferences'));
  });

  it('Cancel goes back one step without saving', async () => {
    const user = userEvent.setup();
    openFromPreferences();
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(screen.getByTestId('location').textContent).toBe('/preferences');
    expect(api.preferences.updateFilters).not.toHaveBeenCalled();
  });

  it('opened directly, Cancel goes to the dashboard', async () => {
    const user = userEvent.setup();
    api.profile.getCompletion.mockResolvedValue({ percentage: 40 });
    renderWithApp(api, { route: '/settings/filters' });
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(screen.getByTestId('location').textContent).toBe('/dashboard');
  });

  it("alerts the server's error, else 'Failed to save preferences', and stays", async () => {
    const user = userEvent.setup();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    api.preferences.updateFilters
      .mockRejectedValueOnce(new ApiError('minAge must not exceed maxAge', 400, 'minAge must not exceed maxAge'))
      .mockRejectedValueOnce(new ApiError('Failed to update preferences', 500));
    openFromPreferences();
    await user.click(await screen.findByRole('button', { name: 'Save Filters' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('minAge must not exceed maxAge'));
    await user.click(screen.getByRole('button', { name: 'Save Filters' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to save preferences'));
    expect(screen.getByTestId('location').textContent).toBe('/settings/filters');
  });

  it('keeps a saved height as it is', async () => {
    const user = userEvent.setup();
    vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    api.preferences.getFilters.mockResolvedValue({ ...DEFAULT_FILTER_PREFERENCES, minHeight: 150, maxHeight: 190 });
    api.preferences.updateFilters.mockImplementation((filters) => Promise.resolve(filters));
    openFromPreferences();
    expect(await screen.findByRole('slider', { name: 'Minimum height' })).toHaveValue('150');
    await user.click(screen.getByRole('button', { name: 'Save Filters' }));
    expect(api.preferences.updateFilters).toHaveBeenCalledWith(
      expect.objectContaining({ minHeight: 150, maxHeight: 190 }),
    );
  });
});
