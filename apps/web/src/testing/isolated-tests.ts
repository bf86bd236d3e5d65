/**
 * The test files that mock a module (`vi.mock`) or stub a global (`vi.stubGlobal`). The others
 * share one jsdom and one module graph per Vitest worker (vite.config.mts, docs/adr/0023); these
 * run in a graph of their own, so a mock reaches every module that imports the mocked one.
 * isolation.test.ts fails when a file that needs it is missing here.
 */
export const ISOLATED_TESTS = [
  'src/call/browser-devices.test.ts',
  'src/call/CallProvider.test.tsx',
  'src/screens/chat/ChatScroll.test.tsx',
  'src/sw/sw.test.ts',
];
