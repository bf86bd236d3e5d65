import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { signedInApi } from '../testing/fake-api';
import { aPushSubscription, createFakePush } from '../testing/fake-push';
import { renderWithApp } from '../testing/render';
import { applicationServerKeyFrom } from './push-browser';

describe('PushProvider', () => {
  it('registers /sw.js on start', async () => {
    const api = signedInApi();
    const push = createFakePush();
    renderWithApp(api, { route: '/settings/privacy', push: push.browser });
    await waitFor(() => expect(push.browser.register).toHaveBeenCalledTimes(1));
  });

  it('hands a subscription this browser already holds to the server for the member who signs in', async () => {
    const api = signedInApi();
    api.notifications.subscribe.mockResolvedValue({ message: 'Subscribed' });
    const subscription = aPushSubscription('https://push.example.org/send/shared-laptop');
    const push = createFakePush({ permission: 'granted', subscription });
    renderWithApp(api, { route: '/settings/privacy', push: push.browser });

    await waitFor(() =>
      expect(api.notifications.subscribe).toHaveBeenCalledWith(expect.objectContaining({ endpoint: subscription.endpoint })),
    );
    expect(subscription.unsubscribe).not.toHaveBeenCalled();
  });

  it("drops the browser's subscription on sign-out, so the next person here gets nobody's pushes", async () => {
    const user = userEvent.setup();
    const api = signedInApi();
    api.notifications.subscribe.mockResolvedValue({ message: 'Subscribed' });
    api.auth.logout.mockResolvedValue(undefined);
    const subscription = aPushSubscription();
    const push = createFakePush({ permission: 'granted', subscription });
    renderWithApp(api, { route: '/settings/privacy', push: push.browser });

    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(subscription.unsubscribe).toHaveBeenCalled());
    expect(push.state.subscription).toBeNull();
  });

  it('shows the screen /sw.js asks for after a notification click', async () => {
    const api = signedInApi();
    api.safety.getBlockedUsers.mockResolvedValue([]);
    const push = createFakePush();
    renderWithApp(api, { route: '/settings/privacy', push: push.browser });
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy & Data' })).toBeInTheDocument();

    act(() => push.navigate('/safety'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/safety$/));
  });
});

describe('applicationServerKeyFrom', () => {
  it('decodes the base64url VAPID key, with or without padding', () => {
    expect(applicationServerKeyFrom('BAECAwQ')).toEqual(new Uint8Array([4, 1, 2, 3, 4]));
    expect(applicationServerKeyFrom('-_8')).toEqual(new Uint8Array([0xfb, 0xff]));
    expect(applicationServerKeyFrom('-_8=')).toEqual(new Uint8Array([0xfb, 0xff]));
  });
});
