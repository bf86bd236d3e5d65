import { PROFILE_FETCH_RETRY_DELAY } from '@mate/contracts';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Spec 000 §4 and §9: one retry, 1 s after the first failure; the second failure is thrown. */
export async function fetchWithOneRetry<T>(fetcher: () => Promise<T>, delayMs = PROFILE_FETCH_RETRY_DELAY): Promise<T> {
  try {
    return await fetcher();
  } catch {
    await sleep(delayMs);
    return fetcher();
  }
}
