import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';

// findBy/waitFor wait for a condition; a test file's first screen loads every module on a busy
// machine (several test runs at once), which can take more than the default second.
configure({ asyncUtilTimeout: 4000 });

beforeEach(() => {
  window.localStorage.clear();
  document.body.style.overflow = '';
});

afterEach(() => cleanup());
