import { screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import type { OwnProfileDto } from '@mate/contracts';
import { aProfile, aUser, createFakeApi, storeSession, type FakeApi } from './fake-api';
import { renderWithApp } from './render';

/** A fake API for a signed-in member on /profile: the session stored, me and the completion (60%) answered. */
export function signedInProfileApi(): FakeApi {
  const api = createFakeApi();
  storeSession();
  api.auth.me.mockResolvedValue(aUser());
  api.profile.getCompletion.mockResolvedValue({ percentage: 60 });
  return api;
}

/** Renders the app on /profile with `profile` as the member's own profile. */
export function openProfile(api: FakeApi, profile: OwnProfileDto = aProfile()) {
  api.profile.getMyProfile.mockResolvedValue(profile);
  return renderWithApp(api, { route: '/profile' });
}

/** Clicks 'Edit Profile' and returns the form it opens. */
export async function openEditForm(user: ReturnType<typeof userEvent.setup>): Promise<HTMLElement> {
  await user.click(await screen.findByRole('button', { name: 'Edit Profile' }));
  return screen.getByRole('form', { name: 'Edit Profile' });
}
