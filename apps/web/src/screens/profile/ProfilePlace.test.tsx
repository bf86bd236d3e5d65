import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { aProfile, type FakeApi } from '../../testing/fake-api';
import { choosePlace } from '../../testing/place-input';
import { openProfile, signedInProfileApi } from '../../testing/profile-screen';

const NOTICE =
  "We couldn't find “Tromso City” on the map, so members who set a distance limit won't see you. Choose your place from the list.";

describe('ProfileScreen: a place the server could not find (issue 25)', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = signedInProfileApi();
    api.photos.list.mockResolvedValue([]);
  });

  it('says so next to Location, and Choose your place opens Edit Profile on the location field', async () => {
    const user = userEvent.setup();
    openProfile(api, aProfile({ location: 'Tromso City', locationResolved: false }));

    const notice = await screen.findByRole('note', { name: 'Location not found' });
    expect(notice).toHaveTextContent(NOTICE);
    // Next to Location: inside its entry of the profile's facts.
    expect(notice.closest('.profile-facts__item')).toHaveTextContent(/^Location/);

    await user.click(within(notice).getByRole('button', { name: 'Choose your place' }));
    const form = screen.getByRole('form', { name: 'Edit Profile' });
    const location = within(form).getByRole('combobox', { name: 'Location' });
    expect(location).toHaveFocus();

    api.profile.searchPlaces.mockResolvedValue([{ name: 'Tromsø', country: 'Norway', label: 'Tromsø, Norway' }]);
    await user.clear(location);
    await user.type(location, 'Trom');
    await choosePlace(location, 'Tromsø, Norway', user);
    api.profile.updateMyProfile.mockResolvedValue(aProfile({ location: 'Tromsø, Norway', locationResolved: true }));
    await user.click(within(form).getByRole('button', { name: 'Save Profile' }));

    expect(api.profile.updateMyProfile).toHaveBeenCalledWith(expect.objectContaining({ location: 'Tromsø, Norway' }));
    expect(await screen.findByText('Tromsø, Norway')).toBeInTheDocument();
    expect(screen.queryByRole('note', { name: 'Location not found' })).not.toBeInTheDocument();
  });

  it('shows the notice after saving a place the server cannot find, once', async () => {
    const user = userEvent.setup();
    openProfile(api, aProfile({ location: 'Lisbon, Portugal', locationResolved: true }));
    await user.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    expect(screen.queryByRole('note', { name: 'Location not found' })).not.toBeInTheDocument();
    const location = screen.getByRole('combobox', { name: 'Location' });
    await user.clear(location);
    await user.type(location, 'Tromso City');
    api.profile.updateMyProfile.mockResolvedValue({
      ...aProfile({ location: 'Tromso City', locationResolved: false }),
      locationNote: "We couldn't find this city on the map, so members who set a distance limit won't see you. Choose your place from the list.",
    });
    await user.click(screen.getByRole('button', { name: 'Save Profile' }));

    expect(await screen.findByRole('note', { name: 'Location not found' })).toHaveTextContent(NOTICE);
    expect(screen.queryByText(/We couldn't find this city/)).not.toBeInTheDocument();
  });

  it('says nothing for a place that was found, or no location at all', async () => {
    openProfile(api, aProfile({ location: 'Lisbon, Portugal', locationResolved: true }));
    expect(await screen.findByText('Lisbon, Portugal')).toBeInTheDocument();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    await waitFor(() => expect(api.profile.getMyProfile).toHaveBeenCalled());
  });
});
