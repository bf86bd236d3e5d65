import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// findBy/waitFor wait for a condition; a test file's first screen loads every module on a busy
// machine (several test runs at once), which can take more than the default second.
configure({ asyncUtilTimeout: 4000 });

// Most test files share one jsdom per worker (vite.config.mts): each test starts from empty
// storage, real timers and an empty page, whatever the file before it left.
beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.body.style.overflow = '';
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
