import { createElement, lazy, type ComponentType } from 'react';

/**
 * A screen whose code loads when its route is first opened (issue 26: only the sign-in screen is
 * in the first download of each app). `preload()` starts that download early — for the route the
 * page opens on, in parallel with the session check, say. React.lazy has no preload of its own,
 * hence these few lines: one promise serves both, a screen whose code is already there renders at
 * once (no 'Loading...' flash, where React.lazy would suspend once per component), and a failed
 * download (a new deploy, the network gone) is forgotten, so opening the route again tries again.
 */
export interface LazyScreen {
  Component: ComponentType;
  preload(): Promise<unknown>;
}

export function lazyScreen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyScreen {
  let pending: Promise<{ default: ComponentType }> | null = null;
  let loaded: ComponentType | null = null;
  const preload = () => {
    pending ??= load().then(
      (module) => {
        loaded = pick(module);
        return { default: loaded };
      },
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  const Lazy = lazy(preload);
  const Component = () => createElement(loaded ?? Lazy);
  return { Component, preload };
}
