import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';

/** Once `done` turns true, goes to `/` (replacing the history entry) after `delay` ms. */
export function useRedirectHomeAfter(done: boolean, delay: number) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => void navigate('/', { replace: true }), delay);
    return () => clearTimeout(timer);
  }, [done, delay, navigate]);
}

/**
 * An emailed single-use link (`?token=…`): the token is sent exactly once, even when effects
 * run twice in development, and a success sends the member to `/` after `redirectDelay` ms
 * (`null`: the page stays, for one whose next steps the member must read).
 */
export function useEmailLinkVerification<T>(
  token: string | null,
  verify: (token: string) => Promise<T>,
  redirectDelay: number | null,
  onSuccess?: (data: T) => void,
) {
  const mutation = useMutation({ mutationFn: verify, onSuccess });
  const started = useRef(false);
  const { mutate } = mutation;

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    mutate(token);
  }, [token, mutate]);

  useRedirectHomeAfter(mutation.isSuccess && redirectDelay !== null, redirectDelay ?? 0);
  return mutation;
}
