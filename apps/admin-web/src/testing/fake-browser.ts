import { vi } from 'vitest';
import type { AdminBrowser } from '../browser/AdminBrowser';

export type FakeBrowser = { [K in keyof AdminBrowser]: ReturnType<typeof vi.fn<AdminBrowser[K]>> };

/** Prompts answer null and confirms false until a test says otherwise. */
export function createFakeBrowser(): FakeBrowser {
  return {
    prompt: vi.fn<AdminBrowser['prompt']>(() => null),
    confirm: vi.fn<AdminBrowser['confirm']>(() => false),
    alert: vi.fn<AdminBrowser['alert']>(),
    assign: vi.fn<AdminBrowser['assign']>(),
    open: vi.fn<AdminBrowser['open']>(),
    download: vi.fn<AdminBrowser['download']>(),
  };
}
