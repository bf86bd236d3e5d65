import { ADMIN_COMMAND_WAIT_MS, type AdminCommandResultDto } from '@mate/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';

/**
 * A command answered 202 (`applied: false`) is durable but not carried out yet, so the reload
 * right after it may still show the old state: reload the admin views once more after the time the
 * service waits for a command (ADMIN_COMMAND_WAIT_MS).
 */
export function useReloadWhenAccepted(): (result: AdminCommandResultDto | undefined) => void {
  const queryClient = useQueryClient();
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(
    () => () => {
      for (const timer of timers.current) clearTimeout(timer);
    },
    [],
  );
  return useCallback(
    (result) => {
      if (!result || result.applied !== false) return;
      timers.current.push(setTimeout(() => void queryClient.invalidateQueries({ queryKey: ['admin'] }), ADMIN_COMMAND_WAIT_MS));
    },
    [queryClient],
  );
}
