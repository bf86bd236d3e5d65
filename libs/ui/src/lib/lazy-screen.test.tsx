import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyScreen } from './lazy-screen';

const Screen = () => <h1>The screen</h1>;

describe('lazyScreen', () => {
  it('shows the fallback while the code downloads, then the screen', async () => {
    const { Component } = lazyScreen(async () => ({ Screen }), (m) => m.Screen);
    render(
      <Suspense fallback={<p>Loading...</p>}>
        <Component />
      </Suspense>,
    );
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'The screen' })).toBeInTheDocument();
  });

  it('downloads once: a preload and the first render share one request', async () => {
    const load = vi.fn(async () => ({ Screen }));
    const { Component, preload } = lazyScreen(load, (m) => m.Screen);
    await preload();
    await preload();
    render(
      <Suspense fallback={<p>Loading...</p>}>
        <Component />
      </Suspense>,
    );
    expect(await screen.findByRole('heading', { name: 'The screen' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('renders at once, without the fallback, once the code is there', async () => {
    const { Component, preload } = lazyScreen(async () => ({ Screen }), (m) => m.Screen);
    await preload();
    render(
      <Suspense fallback={<p>Loading...</p>}>
        <Component />
      </Suspense>,
    );
    expect(screen.getByRole('heading', { name: 'The screen' })).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
  });

  it('tries again after a failed download (a dropped connection is not remembered)', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('network')).mockResolvedValueOnce({ Screen });
    const { preload } = lazyScreen(load, (m: { Screen: typeof Screen }) => m.Screen);
    await expect(preload()).rejects.toThrow('network');
    await expect(preload()).resolves.toEqual({ default: Screen });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
