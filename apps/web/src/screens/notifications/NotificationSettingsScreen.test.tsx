import { ApiError } from '@mate/api-client';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '@mate/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { signedInApi, type FakeApi } from '../../testing/fake-api';
import { aPushSubscription, createFakePush, type FakePushOptions } from '../../testing/fake-push';
import { renderWithApp } from '../../testing/render';

const ROUTE = '/settings/notifications';
const VAPID_KEY = 'BAECAwQ'; // base64url of the bytes 4, 1, 2, 3, 4

const pushCard = () => screen.getByRole('region', { name: 'Push Notifications' });
const typesCard = () => screen.getByRole('region', { name: 'Notification Types' });
const toggle = (name: string) => within(typesCard()).getByRole('switch', { name });

describe('NotificationSettingsScreen (/settings/notifications)', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = signedInApi();
    api.notifications.getPreferences.mockResolvedValue({ ...DEFAULT_NOTIFICATION_PREFERENCES });
  });

  const open = (options: FakePushOptions = {}) => {
    const push = createFakePush(options);
    renderWithApp(api, { route: ROUTE, push: push.browser });
    return push;
  };

  describe('Push Notifications', () => {
    it('enables push: asks permission, subscribes with the VAPID key and sends the subscription to the server', async () => {
      const user = userEvent.setup();
      api.notifications.getVapidPublicKey.mockResolvedValue(VAPID_KEY);
      api.notifications.subscribe.mockResolvedValue({ message: 'Subscribed' });
      const push = open();

      expect(await screen.findByRole('heading', { level: 1, name: 'Notification Settings' })).toBeInTheDocument();
      expect(await within(pushCard()).findByText('Disabled')).toBeInTheDocument();
      await user.click(within(pushCard()).getByRole('button', { name: 'Enable' }));

      expect(await within(pushCard()).findByText('Enabled')).toBeInTheDocument();
      expect(push.browser.requestPermission).toHaveBeenCalledTimes(1);
      expect(push.browser.subscribe).toHaveBeenCalledWith(new Uint8Array([4, 1, 2, 3, 4]));
      expect(api.notifications.subscribe).toHaveBeenCalledWith({
        endpoint: 'https://push.example.org/send/device-1',
        expirationTime: null,
        keys: { p256dh: 'BPublicKeyOfTheDevice', auth: 'authSecret' },
      });
      expect(within(pushCard()).getByRole('button', { name: 'Disable' })).toBeInTheDocument();
    });

    it('disables push: the server forgets this device, then the browser drops the subscription', async () => {
      const user = userEvent.setup();
      const subscription = aPushSubscription();
      api.notifications.subscribe.mockResolvedValue({ message: 'Subscribed' });
      api.notifications.unsubscribe.mockResolvedValue({ message: 'Unsubscribed' });
      const push = open({ permission: 'granted', subscription });

      await user.click(await within(await screen.findByRole('region', { name: 'Push Notifications' })).findByRole('button', { name: 'Disable' }));

      expect(await within(pushCard()).findByText('Disabled')).toBeInTheDocument();
      expect(api.notifications.unsubscribe).toHaveBeenCalledWith(subscription.endpoint);
      expect(subscription.unsubscribe).toHaveBeenCalled();
      expect(push.state.subscription).toBeNull();
      expect(within(pushCard()).getByRole('button', { name: 'Enable' })).toBeInTheDocument();
    });

    it('keeps the subscription and shows the error when the server refuses to forget it', async () => {
      const user = userEvent.setup();
      const subscription = aPushSubscription();
      api.notifications.subscribe.mockResolvedValue({ message: 'Subscribed' });
      api.notifications.unsubscribe.mockRejectedValue(new ApiError('Service temporarily unavailable', 503, 'Service temporarily unavailable'));
      open({ permission: 'granted', subscription });

      await user.click(await within(await screen.findByRole('region', { name: 'Push Notifications' })).findByRole('button', { name: 'Disable' }));

      expect(await within(pushCard()).findByRole('alert')).toHaveTextContent('Service temporarily unavailable');
      expect(subscription.unsubscribe).not.toHaveBeenCalled();
      expect(within(pushCard()).getByText('Enabled')).toBeInTheDocument();
    });

    it("shows 'Failed to get VAPID public key' and subscribes nothing when the key cannot be had", async () => {
      const user = userEvent.setup();
      api.notifications.getVapidPublicKey.mockRejectedValue(new ApiError('Failed to get VAPID public key', 500));
      const push = open();

      await user.click(await within(await screen.findByRole('region', { name: 'Push Notifications' })).findByRole('button', { name: 'Enable' }));

      expect(await within(pushCard()).findByRole('alert')).toHaveTextContent('Failed to get VAPID public key');
      expect(push.browser.subscribe).not.toHaveBeenCalled();
      expect(api.notifications.subscribe).not.toHaveBeenCalled();
    });

    it("drops the browser's new subscription when the server refuses it, and shows the server's words", async () => {
      const user = userEvent.setup();
      api.notifications.getVapidPublicKey.mockResolvedValue(VAPID_KEY);
      api.notifications.subscribe.mockRejectedValue(
        new ApiError('Push endpoint must be an https URL of a public push service', 400, 'Push endpoint must be an https URL of a public push service'),
      );
      const push = open();

      await user.click(await within(await screen.findByRole('region', { name: 'Push Notifications' })).findByRole('button', { name: 'Enable' }));

      expect(await within(pushCard()).findByRole('alert')).toHaveTextContent(
        'Push endpoint must be an https URL of a public push service',
      );
      expect(push.state.subscription).toBeNull();
      expect(within(pushCard()).getByText('Disabled')).toBeInTheDocument();
    });

    it('shows Blocked and points to the browser settings when the permission is denied; no Enable', async () => {
      open({ permission: 'denied' });
      expect(await screen.findByRole('heading', { level: 1, name: 'Notification Settings' })).toBeInTheDocument();
      expect(within(pushCard()).getByText('Blocked')).toBeInTheDocument();
      expect(within(pushCard()).getByText(/allow notifications for this site in your\s+browser settings/)).toBeInTheDocument();
      expect(within(pushCard()).queryByRole('button', { name: 'Enable' })).not.toBeInTheDocument();
    });

    it('becomes Blocked when the member refuses the permission', async () => {
      const user = userEvent.setup();
      const push = open({ answer: 'denied' });
      await user.click(await within(await screen.findByRole('region', { name: 'Push Notifications' })).findByRole('button', { name: 'Enable' }));
      expect(await within(pushCard()).findByText('Blocked')).toBeInTheDocument();
      expect(api.notifications.getVapidPublicKey).not.toHaveBeenCalled();
      expect(push.browser.subscribe).not.toHaveBeenCalled();
    });

    it("says 'This browser does not support notifications' without push support", async () => {
      open({ supported: false });
      expect(await screen.findByRole('heading', { level: 1, name: 'Notification Settings' })).toBeInTheDocument();
      expect(within(pushCard()).getByText('This browser does not support notifications')).toBeInTheDocument();
      expect(within(pushCard()).queryByRole('button')).not.toBeInTheDocument();
    });
  });

  describe('Notification Types', () => {
    it('shows one switch per type, in the spec order, then Private previews with its explanation', async () => {
      api.notifications.getPreferences.mockResolvedValue({ ...DEFAULT_NOTIFICATION_PREFERENCES, newLikes: false });
      open();
      await within(await screen.findByRole('region', { name: 'Notification Types' })).findAllByRole('switch');
      const switches = within(typesCard()).getAllByRole('switch');
      const names = switches.map((s) => document.getElementById(s.getAttribute('aria-labelledby') ?? '')?.textContent);
      expect(names).toEqual([
        'New Matches',
        'New Messages',
        'New Likes',
        'Safety Alerts',
        'Admin Actions',
        'Private previews',
      ]);
      expect(toggle('New Likes')).toHaveAttribute('aria-checked', 'false');
      expect(toggle('New Matches')).toHaveAttribute('aria-checked', 'true');
      expect(toggle('Private previews')).toHaveAttribute('aria-checked', 'false');
      expect(toggle('Private previews')).toHaveAccessibleDescription(
        'Notifications say only that something happened, without names or message text.',
      );
    });

    it('falls back to all on (and private previews off) when the preferences cannot be fetched', async () => {
      api.notifications.getPreferences.mockRejectedValue(new ApiError('Failed to get notification preferences', 500));
      open();
      await within(await screen.findByRole('region', { name: 'Notification Types' })).findAllByRole('switch');
      for (const name of ['New Matches', 'New Messages', 'New Likes', 'Safety Alerts', 'Admin Actions']) {
        expect(toggle(name)).toHaveAttribute('aria-checked', 'true');
      }
      expect(toggle('Private previews')).toHaveAttribute('aria-checked', 'false');
    });

    it('sends only the changed key and shows the change at once', async () => {
      const user = userEvent.setup();
      let answer!: (value: unknown) => void;
      api.notifications.updatePreferences.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
      open();
      await within(await screen.findByRole('region', { name: 'Notification Types' })).findAllByRole('switch');

      await user.click(toggle('New Messages'));
      // Optimistic: switched before the server has answered.
      expect(toggle('New Messages')).toHaveAttribute('aria-checked', 'false');
      expect(api.notifications.updatePreferences).toHaveBeenCalledWith({ newMessages: false });
      answer({ ...DEFAULT_NOTIFICATION_PREFERENCES, newMessages: false });
      await waitFor(() => expect(api.notifications.updatePreferences).toHaveBeenCalledTimes(1));
      expect(toggle('New Messages')).toHaveAttribute('aria-checked', 'false');
      expect(within(typesCard()).queryByRole('alert')).not.toBeInTheDocument();

      await user.click(toggle('Private previews'));
      expect(api.notifications.updatePreferences).toHaveBeenLastCalledWith({ privatePreviews: true });
    });

    it("puts the switch back and shows the error when the update fails", async () => {
      const user = userEvent.setup();
      let refuse!: (error: Error) => void;
      api.notifications.updatePreferences.mockImplementation(() => new Promise((_resolve, reject) => (refuse = reject)));
      open();
      await within(await screen.findByRole('region', { name: 'Notification Types' })).findAllByRole('switch');

      await user.click(toggle('Safety Alerts'));
      expect(toggle('Safety Alerts')).toHaveAttribute('aria-checked', 'false');
      refuse(new ApiError('Unknown notification preference', 400, 'Unknown notification preference'));

      expect(await within(typesCard()).findByRole('alert')).toHaveTextContent('Unknown notification preference');
      expect(toggle('Safety Alerts')).toHaveAttribute('aria-checked', 'true');
    });

    it("reverts only the key that failed; a second toggle made meanwhile stays", async () => {
      const user = userEvent.setup();
      const pending: { reject: (error: Error) => void; resolve: (value: unknown) => void }[] = [];
      api.notifications.updatePreferences.mockImplementation(
        () => new Promise((resolve, reject) => pending.push({ resolve, reject })),
      );
      open();
      await within(await screen.findByRole('region', { name: 'Notification Types' })).findAllByRole('switch');

      await user.click(toggle('New Matches'));
      await user.click(toggle('New Likes'));
      pending[0].reject(new ApiError('Failed to update notification preferences', 502));
      pending[1].resolve({});

      expect(await within(typesCard()).findByRole('alert')).toHaveTextContent('Failed to update notification preferences');
      expect(toggle('New Matches')).toHaveAttribute('aria-checked', 'true');
      expect(toggle('New Likes')).toHaveAttribute('aria-checked', 'false');
    });
  });
});
