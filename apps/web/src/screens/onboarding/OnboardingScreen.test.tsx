import { ApiError } from '@mate/api-client';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { aPhoto, aProfile, aUser, createFakeApi, storeSession, type FakeApi } from '../../testing/fake-api';
import { choosePlace } from '../../testing/place-input';
import { renderWithApp } from '../../testing/render';

const MB = 1024 * 1024;

function imageFile(name: string, type: string, size?: number): File {
  const file = new File([new Uint8Array([1, 2, 3])], name, { type });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
}

const newcomer = () => aProfile({ name: 'Ada', age: 30, onboardingCompleted: false });

describe('OnboardingScreen', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = createFakeApi();
    storeSession();
    api.auth.me.mockResolvedValue(aUser());
  });

  const next = (user: UserEvent) => user.click(screen.getByRole('button', { name: 'Next' }));

  it('shows the Welcome step of 5 with its progress and moves on with Next', async () => {
    const user = userEvent.setup();
    api.profile.getMyProfile.mockResolvedValue(newcomer());
    renderWithApp(api, { route: '/onboarding' });
    expect(await screen.findByRole('heading', { name: 'Welcome to Mate!' })).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 5')).toBeInTheDocument();
    for (const step of ['Welcome', 'Basic Info', 'Photo', 'About You', 'Preferences']) {
      expect(screen.getByText(step)).toBeInTheDocument();
    }
    expect(screen.getByRole('progressbar', { name: 'Onboarding progress' })).toHaveAttribute('aria-valuenow', '1');
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
    await next(user);
    expect(screen.getByRole('heading', { name: 'Basic Info' })).toHaveFocus();
    expect(screen.getByRole('progressbar', { name: 'Onboarding progress' })).toHaveAttribute('aria-valuenow', '2');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('heading', { name: 'Welcome to Mate!' })).toBeInTheDocument();
  });

  it('Basic Info: prefilled from sign-up; under 18 says so and keeps Next disabled; gender is required', async () => {
    const user = userEvent.setup();
    api.profile.getMyProfile.mockResolvedValue(newcomer());
    renderWithApp(api, { route: '/onboarding' });
    await user.click(await screen.findByRole('button', { name: 'Next' }));

    expect(screen.getByLabelText('Name')).toHaveValue('Ada');
    const age = screen.getByLabelText('Age');
    expect(age).toHaveValue(30);
    expect(age).toHaveAttribute('min', '18');
    expect(age).toHaveAttribute('max', '99');
    const gender = screen.getByLabelText('Gender');
    expect(within(gender).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Select...',
      'Male',
      'Female',
      'Non-binary',
      'Prefer not to say',
    ]);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();

    await user.selectOptions(gender, 'prefer-not-to-say');
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();

    await user.clear(age);
    await user.type(age, '17');
    expect(screen.getByText('You must be 18 or older to use the product')).toBeInTheDocument();
    expect(age).toHaveAccessibleDescription('You must be 18 or older to use the product');
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();

    await user.clear(age);
    await user.type(age, '18');
    expect(screen.queryByText('You must be 18 or older to use the product')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();

    await user.clear(screen.getByLabelText('Name'));
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('Photo: checks type and size, uploads with the onboarding context, then lets the member on', async () => {
    const user = userEvent.setup({ applyAccept: false });
    api.profile.getMyProfile.mockResolvedValue(newcomer());
    api.photos.upload.mockResolvedValue({ url: '/api/photos/files/ph1/large.webp', photo: aPhoto(1) });
    renderWithApp(api, { route: '/onboarding' });
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await user.selectOptions(screen.getByLabelText('Gender'), 'female');
    await next(user);

    expect(screen.getByRole('heading', { name: 'Add a Photo' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    const input = screen.getByLabelText('Upload photo');
    expect(input).toHaveAttribute('accept', 'image/jpeg,image/png,image/webp');

    await user.upload(input, imageFile('me.gif', 'image/gif'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Only JPEG, PNG, and WebP images are allowed');
    await user.upload(input, imageFile('big.jpg', 'image/jpeg', 10 * MB + 1));
    expect(screen.getByRole('alert')).toHaveTextContent('Photo must be less than 10MB');
    expect(api.photos.upload).not.toHaveBeenCalled();

    // 7 MB is too big for the profile screen but fine here.
    const file = imageFile('me.jpg', 'image/jpeg', 7 * MB);
    await user.upload(input, file);
    await waitFor(() =>
      expect(api.photos.upload).toHaveBeenCalledWith(file, {
        token: 'stored-token',
        context: 'onboarding',
        fallbackMessage: undefined,
      }),
    );
    expect(await screen.findByRole('img', { name: 'Your photo' })).toHaveAttribute(
      'src',
      'http://api.test/api/photos/files/ph1/medium.webp',
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
  });

  it("Photo: a failed upload says 'Failed to upload photo. Please try again.'", async () => {
    const user = userEvent.setup();
    api.profile.getMyProfile.mockResolvedValue(newcomer());
    api.photos.upload.mockRejectedValue(new ApiError('Failed to upload photo', 500));
    renderWithApp(api, { route: '/onboarding' });
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await user.selectOptions(screen.getByLabelText('Gender'), 'female');
    await next(user);
    await user.upload(screen.getByLabelText('Upload photo'), imageFile('me.png', 'image/png'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to upload photo. Please try again.');
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('About You: bio of 20 characters, suggestions, custom entries, duplicates ignored, at most 10', async () => {
    const user = userEvent.setup();
    api.profile.getMyProfile.mockResolvedValue(aProfile({ ...newcomer(), gender: 'female', photos: [aPhoto(1)] }));
    renderWithApp(api, { route: '/onboarding' });
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await next(user); // Basic Info is complete from the profile
    expect(screen.getByRole('img', { name: 'Your photo' })).toBeInTheDocument();
    await next(user); // a photo is already there
    expect(screen.getByRole('heading', { name: 'About You' })).toBeInTheDocument();

    const bio = screen.getByLabelText('Bio');
    await user.type(bio, 'x'.repeat(19));
    await user.click(screen.getByRole('button', { name: 'Travel' }));
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(bio).toHaveAccessibleDescription('19/20 characters minimum');
    await user.type(bio, 'y');
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();

    // The chosen one leaves the suggestions; the 11th suggestion moves up into the first 10.
    expect(screen.getByRole('button', { name: 'Remove Travel' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Travel' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Hiking' })).toBeInTheDocument();

    const custom = screen.getByLabelText('Add your own');
    await user.type(custom, '  Board games  {Enter}');
    expect(screen.getByRole('button', { name: 'Remove Board games' })).toBeInTheDocument();
    expect(custom).toHaveValue('');
    await user.type(custom, 'travel');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.queryByRole('button', { name: 'Remove travel' })).not.toBeInTheDocument();
    await user.type(custom, '   {Enter}');

    const chosen = () => screen.getAllByRole('button', { name: /^Remove / });
    expect(chosen()).toHaveLength(2);
    for (const name of ['Photography', 'Music', 'Fitness', 'Cooking', 'Reading', 'Movies', 'Gaming', 'Art']) {
      await user.click(screen.getByRole('button', { name }));
    }
    expect(chosen()).toHaveLength(10);
    await user.click(screen.getByRole('button', { name: 'Yoga' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Maximum 10 interests allowed');
    await user.type(custom, 'Chess{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('Maximum 10 interests allowed');
    expect(chosen()).toHaveLength(10);

    await user.click(screen.getByRole('button', { name: 'Remove Art' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(chosen()).toHaveLength(9);
  });

  it('Complete sends every answer, refreshes the profile and lands on /discover', async () => {
    const user = userEvent.setup();
    api.profile.getMyProfile
      .mockResolvedValueOnce(newcomer())
      .mockResolvedValueOnce(newcomer())
      .mockResolvedValue(aProfile({ onboardingCompleted: true }));
    api.photos.upload.mockResolvedValue({ url: '/p.webp', photo: aPhoto(1) });
    api.profile.completeOnboarding.mockResolvedValue(aProfile({ onboardingCompleted: true }));
    renderWithApp(api, { route: '/onboarding' });

    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'Ada Lovelace');
    await user.selectOptions(screen.getByLabelText('Gender'), 'non-binary');
    await next(user);
    await user.upload(screen.getByLabelText('Upload photo'), imageFile('me.webp', 'image/webp'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled());
    await next(user);
    await user.type(screen.getByLabelText('Bio'), 'Mathematician, poet of science.');
    await user.click(screen.getByRole('button', { name: 'Reading' }));
    await next(user);

    expect(screen.getByRole('heading', { name: 'Preferences' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
    const completeButton = screen.getByRole('button', { name: 'Complete' });
    expect(completeButton).toBeDisabled();
    const lookingFor = screen.getByLabelText('Looking For');
    expect(within(lookingFor).getAllByRole('option').map((o) => (o as HTMLOptionElement).value)).toEqual([
      '',
      'long-term',
      'short-term',
      'friendship',
      'casual',
      'not-sure',
    ]);
    await user.selectOptions(lookingFor, 'long-term');
    const location = screen.getByLabelText('Location');
    expect(location).toHaveAttribute('placeholder', 'City, State/Country');
    // The place list (issue 25): typing 'Trom' offers Tromsø, and choosing it fills the field.
    api.profile.searchPlaces.mockResolvedValue([
      { name: 'Tromsø', country: 'Norway', label: 'Tromsø, Norway' },
      { name: 'Trondheim', country: 'Norway', label: 'Trondheim, Norway' },
    ]);
    await user.type(location, 'Trom');
    await choosePlace(location, 'Tromsø, Norway', user);
    expect(api.profile.searchPlaces).toHaveBeenCalledWith('Trom', 8);
    expect(location).toHaveValue('Tromsø, Norway');
    await user.click(completeButton);

    expect(api.profile.completeOnboarding).toHaveBeenCalledWith({
      name: 'Ada Lovelace',
      age: 30,
      gender: 'non-binary',
      bio: 'Mathematician, poet of science.',
      interests: ['Reading'],
      lookingFor: 'long-term',
      location: 'Tromsø, Norway',
    });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/discover'));
    expect(api.profile.getMyProfile).toHaveBeenCalledTimes(3);
  });

  it("alerts 'Failed to complete onboarding. Please try again.' and stays", async () => {
    const user = userEvent.setup();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    api.profile.getMyProfile.mockResolvedValue(
      aProfile({
        ...newcomer(),
        gender: 'female',
        photos: [aPhoto(1)],
        bio: 'A bio that is long enough.',
        interests: ['Art'],
        lookingFor: 'casual',
        location: 'Paris, France',
      }),
    );
    api.profile.completeOnboarding.mockRejectedValue(new ApiError('Add at least one photo', 400, 'Add at least one photo'));
    renderWithApp(api, { route: '/onboarding' });
    for (let i = 0; i < 4; i += 1) await user.click(await screen.findByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Complete' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to complete onboarding. Please try again.'));
    expect(screen.getByTestId('location').textContent).toBe('/onboarding');
  });

  it("'Skip for now' completes onboarding without answers and goes to /dashboard", async () => {
    const user = userEvent.setup();
    api.profile.getMyProfile
      .mockResolvedValueOnce(newcomer())
      .mockResolvedValueOnce(newcomer())
      .mockResolvedValue(aProfile({ onboardingCompleted: true }));
    api.profile.completeOnboarding.mockResolvedValue(null);
    api.profile.getCompletion.mockResolvedValue({ percentage: 20 });
    renderWithApp(api, { route: '/onboarding' });
    await user.click(await screen.findByRole('button', { name: 'Skip for now' }));
    expect(api.profile.completeOnboarding).toHaveBeenCalledTimes(1);
    expect(api.profile.completeOnboarding.mock.calls[0]).toEqual([undefined]);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada!' })).toBeInTheDocument();
  });

  it("alerts 'Failed to skip. Please try again.' when skipping fails", async () => {
    const user = userEvent.setup();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    api.profile.getMyProfile.mockResolvedValue(newcomer());
    api.profile.completeOnboarding.mockRejectedValue(new ApiError('Failed to complete onboarding', 500));
    renderWithApp(api, { route: '/onboarding' });
    await user.click(await screen.findByRole('button', { name: 'Skip for now' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to skip. Please try again.'));
    expect(screen.getByTestId('location').textContent).toBe('/onboarding');
  });

  it('sends a completed member to /dashboard and an unverified one to the prompt', async () => {
    api.profile.getMyProfile.mockResolvedValue(aProfile({ onboardingCompleted: true }));
    api.profile.getCompletion.mockResolvedValue({ percentage: 50 });
    const { unmount } = renderWithApp(api, { route: '/onboarding' });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
    unmount();

    api.profile.getMyProfile.mockResolvedValue(aProfile({ isVerified: false, onboardingCompleted: false }));
    renderWithApp(api, { route: '/onboarding' });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/verify-email-prompt'));
  });
});
