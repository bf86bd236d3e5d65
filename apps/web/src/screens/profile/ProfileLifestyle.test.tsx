import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OwnProfileDto } from '@mate/contracts';
import { aProfile, type FakeApi } from '../../testing/fake-api';
import { openEditForm, openProfile, signedInProfileApi } from '../../testing/profile-screen';
import { lifestyleLabel } from '../../profile/labels';
import { formValuesOf, profileUpdateOf } from './profile-form';

/** Issue 8 groundwork: the lifestyle fields of spec 001 §3 in the Edit Profile form and the details. */
describe('Profile lifestyle fields', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = signedInProfileApi();
    api.photos.list.mockResolvedValue([]);
  });

  const open = (profile?: OwnProfileDto) => openProfile(api, profile);

  const optionTexts = (select: HTMLElement) =>
    within(select)
      .getAllByRole('option')
      .map((o) => o.textContent);

  it("offers four labelled selects in a 'Lifestyle' group, each starting at 'Not set' with the spec's labels", async () => {
    const user = userEvent.setup();
    open();
    await openEditForm(user);

    const group = screen.getByRole('group', { name: 'Lifestyle' });
    expect(
      within(group)
        .getAllByRole('combobox')
        .map((select) => select.getAttribute('name')),
    ).toEqual(['smoking', 'drinking', 'exercise', 'pets']);
    const smokingAndDrinking = ['Not set', 'Never', 'Socially', 'Regularly', 'Prefer not to say'];
    expect(optionTexts(within(group).getByLabelText('Smoking'))).toEqual(smokingAndDrinking);
    expect(optionTexts(within(group).getByLabelText('Drinking'))).toEqual(smokingAndDrinking);
    expect(optionTexts(within(group).getByLabelText('Exercise'))).toEqual([
      'Not set',
      'Never',
      'Sometimes',
      'Regularly',
      'Daily',
    ]);
    expect(optionTexts(within(group).getByLabelText('Pets'))).toEqual([
      'Not set',
      'None',
      'Dog',
      'Cat',
      'Other',
      'Multiple',
    ]);
    for (const label of ['Smoking', 'Drinking', 'Exercise', 'Pets']) {
      expect(within(group).getByLabelText(label)).toHaveValue('');
    }
  });

  it('sends the stored values (prefer_not_to_say, lower-case) and shows their labels once saved', async () => {
    const user = userEvent.setup();
    open();
    await openEditForm(user);
    const saved = aProfile({
      smoking: 'prefer_not_to_say',
      drinking: 'socially',
      exercise: 'daily',
      pets: 'multiple',
    });
    api.profile.updateMyProfile.mockResolvedValue({ ...saved, locationResolved: null });

    await user.selectOptions(screen.getByLabelText('Smoking'), 'Prefer not to say');
    await user.selectOptions(screen.getByLabelText('Drinking'), 'Socially');
    await user.selectOptions(screen.getByLabelText('Exercise'), 'Daily');
    await user.selectOptions(screen.getByLabelText('Pets'), 'Multiple');
    await user.click(screen.getByRole('button', { name: 'Save Profile' }));

    expect(api.profile.updateMyProfile).toHaveBeenCalledWith(
      expect.objectContaining({
        smoking: 'prefer_not_to_say',
        drinking: 'socially',
        exercise: 'daily',
        pets: 'multiple',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Profile' })).not.toBeInTheDocument());
    expect(screen.getByText('Smoking').closest('.profile-facts__item')).toHaveTextContent(
      'Prefer not to say',
    );
    expect(screen.getByText('Drinking').closest('.profile-facts__item')).toHaveTextContent('Socially');
    expect(screen.getByText('Exercise').closest('.profile-facts__item')).toHaveTextContent('Daily');
    expect(screen.getByText('Pets').closest('.profile-facts__item')).toHaveTextContent('Multiple');
  });

  it("starts from the saved values, and 'Not set' sends null (which clears the field)", async () => {
    const user = userEvent.setup();
    open(aProfile({ smoking: 'never', drinking: 'regularly', exercise: 'sometimes', pets: 'dog' }));
    await openEditForm(user);
    expect(screen.getByLabelText('Smoking')).toHaveValue('never');
    expect(screen.getByLabelText('Drinking')).toHaveValue('regularly');
    expect(screen.getByLabelText('Exercise')).toHaveValue('sometimes');
    expect(screen.getByLabelText('Pets')).toHaveValue('dog');
    api.profile.updateMyProfile.mockResolvedValue({
      ...aProfile({ drinking: 'regularly', pets: 'dog' }),
      locationResolved: null,
    });

    await user.selectOptions(screen.getByLabelText('Smoking'), 'Not set');
    await user.selectOptions(screen.getByLabelText('Exercise'), 'Not set');
    await user.click(screen.getByRole('button', { name: 'Save Profile' }));

    expect(api.profile.updateMyProfile).toHaveBeenCalledWith(
      expect.objectContaining({ smoking: null, drinking: 'regularly', exercise: null, pets: 'dog' }),
    );
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Profile' })).not.toBeInTheDocument());
    expect(screen.queryByText('Smoking')).not.toBeInTheDocument();
    expect(screen.queryByText('Exercise')).not.toBeInTheDocument();
    expect(screen.getByText('Drinking').closest('.profile-facts__item')).toHaveTextContent('Regularly');
    expect(screen.getByText('Pets').closest('.profile-facts__item')).toHaveTextContent('Dog');
  });

  it('is reached in order with Tab, as native selects (which the browser lets the keyboard change)', async () => {
    const user = userEvent.setup();
    open();
    await openEditForm(user);
    // Tab from the field before the group (Education) walks the four selects, then the first interest.
    screen.getByLabelText('Education').focus();
    for (const label of ['Smoking', 'Drinking', 'Exercise', 'Pets']) {
      await user.tab();
      const select = screen.getByLabelText(label);
      expect(select).toHaveFocus();
      expect(select.tagName).toBe('SELECT');
    }
    await user.tab();
    expect(
      within(screen.getByRole('group', { name: 'Interests' })).getByRole('button', { name: 'Travel' }),
    ).toHaveFocus();
  });

  it('shows no lifestyle facts in the details while none is set', async () => {
    open(aProfile({ occupation: 'Engineer' }));
    expect(await screen.findByText('Engineer')).toBeInTheDocument();
    for (const label of ['Smoking', 'Drinking', 'Exercise', 'Pets']) {
      expect(screen.queryByText(label)).not.toBeInTheDocument();
    }
  });

  it('profileUpdateOf: every lifestyle field as a stored value or null, never an empty or unknown string', () => {
    const values = formValuesOf(aProfile({ smoking: 'socially', pets: 'cat' }));
    expect(values).toMatchObject({ smoking: 'socially', drinking: '', exercise: '', pets: 'cat' });
    expect(profileUpdateOf({ ...values, exercise: 'sometimes', drinking: 'often' })).toMatchObject({
      smoking: 'socially',
      drinking: null,
      exercise: 'sometimes',
      pets: 'cat',
    });
  });

  it("lifestyleLabel: the spec's label for each stored value, a readable text for one it does not know", () => {
    expect(lifestyleLabel('smoking', 'prefer_not_to_say')).toBe('Prefer not to say');
    expect(lifestyleLabel('drinking', 'socially')).toBe('Socially');
    expect(lifestyleLabel('exercise', 'sometimes')).toBe('Sometimes');
    expect(lifestyleLabel('pets', 'none')).toBe('None');
    expect(lifestyleLabel('pets', 'guinea_pig')).toBe('Guinea pig');
  });
});
