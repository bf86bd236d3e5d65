import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';

configure({ asyncUtilTimeout: 4000 });

// recharts' ResponsiveContainer measures its box; jsdom has no layout, so a no-op observer.
class NoopResizeObserver {
  observe(): void {
    // Nothing to measure in jsdom.
  }
  unobserve(): void {
    // Nothing observed.
  }
  disconnect(): void {
    // Nothing observed.
  }
}
if (!('ResizeObserver' in globalThis)) {
  (globalThis as unknown as { ResizeObserver: typeof NoopResizeObserver }).ResizeObserver = NoopResizeObserver;
}

beforeEach(() => {
  window.localStorage.clear();
});

afterEach(() => cleanup());
