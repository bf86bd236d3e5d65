import { isApiError } from '@mate/api-client';
import {
  SUGGESTIONS_PAGE_SIZE,
  SUGGESTIONS_RELOAD_AT,
  SWIPE_EXIT_MS,
  type SuggestionDto,
} from '@mate/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useApi } from '../../api/ApiContext';
import type { MatchedMember } from '../../realtime/MatchDialog';
import type { SwipeDirection } from './swipe';

type LoadStatus = 'loading' | 'ready' | 'error';

interface Exit {
  userId: string;
  direction: SwipeDirection;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The Discover queue (spec 000 §4). The top card is decided by like or pass: the call goes out at
 * once, the card leaves after the 300 ms exit, and when 3 or fewer remain more suggestions are
 * appended (none already queued or decided this session). Rewind undoes the session's last pass.
 */
export function useDiscoverQueue({ onMatch }: { onMatch: (member: MatchedMember) => void }) {
  const api = useApi();
  const [cards, setCards] = useState<SuggestionDto[]>([]);
  const [status, setStatus] = useState<LoadStatus>('loading');
  const [loadError, setLoadError] = useState<string | null>(null);
  /** A failed like, pass, rewind or reload: shown beside the card without stopping the swiping. */
  const [notice, setNotice] = useState<string | null>(null);
  const [exiting, setExiting] = useState<Exit | null>(null);
  const [rewindable, setRewindable] = useState(0);
  const [rewinding, setRewinding] = useState(false);
  const decided = useRef(new Set<string>());
  const reloading = useRef(false);
  /** Set while a card is leaving: a second decision in the same moment (key repeat) is ignored. */
  const exitTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onMatchRef = useRef(onMatch);
  const cardsRef = useRef(cards);
  useEffect(() => {
    onMatchRef.current = onMatch;
    cardsRef.current = cards;
  });

  const load = useCallback(async () => {
    setStatus('loading');
    setNotice(null);
    try {
      const page = await api.matching.getSuggestions(SUGGESTIONS_PAGE_SIZE);
      setCards(page.filter((card) => !decided.current.has(card.user.id)));
      setStatus('ready');
    } catch (error) {
      setLoadError(messageOf(error));
      setStatus('error');
    }
  }, [api]);

  const reload = useCallback(async () => {
    if (reloading.current) return;
    reloading.current = true;
    try {
      const page = await api.matching.getSuggestions(SUGGESTIONS_PAGE_SIZE);
      setCards((current) => {
        const queued = new Set(current.map((card) => card.user.id));
        const fresh = page.filter((card) => !queued.has(card.user.id) && !decided.current.has(card.user.id));
        return [...current, ...fresh];
      });
    } catch (error) {
      setNotice(messageOf(error));
    } finally {
      reloading.current = false;
    }
  }, [api]);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => () => clearTimeout(exitTimer.current), []);

  const top = cards[0] ?? null;

  const decide = useCallback(
    (direction: SwipeDirection) => {
      if (!top || exitTimer.current !== undefined) return;
      const { user } = top;
      decided.current.add(user.id);
      setNotice(null);
      setExiting({ userId: user.id, direction });

      const call =
        direction === 'right'
          ? api.matching.like(user.id).then((result) => {
              if (result.matched)
                onMatchRef.current({ id: user.id, name: user.name, profilePicture: user.profilePicture });
            })
          : api.matching.pass(user.id).then(() => setRewindable((count) => count + 1));
      call.catch((error: unknown) => {
        // Not recorded: a later reload may offer this member again.
        decided.current.delete(user.id);
        setNotice(messageOf(error));
      });

      exitTimer.current = setTimeout(() => {
        exitTimer.current = undefined;
        const remaining = cardsRef.current.filter((card) => card.user.id !== user.id).length;
        setCards((current) => current.filter((card) => card.user.id !== user.id));
        setExiting(null);
        if (remaining <= SUGGESTIONS_RELOAD_AT) void reload();
      }, SWIPE_EXIT_MS);
    },
    [api, top, reload],
  );

  const rewind = useCallback(async () => {
    if (rewindable === 0 || rewinding || exiting) return;
    setRewinding(true);
    setNotice(null);
    try {
      const { suggestion } = await api.matching.rewind();
      decided.current.delete(suggestion.user.id);
      setCards((current) => [suggestion, ...current.filter((card) => card.user.id !== suggestion.user.id)]);
      setRewindable((count) => Math.max(0, count - 1));
    } catch (error) {
      // 404: the server has no pass left to undo (made on another device, or already undone).
      if (isApiError(error) && error.status === 404) setRewindable(0);
      setNotice(messageOf(error));
    } finally {
      setRewinding(false);
    }
  }, [api, rewindable, rewinding, exiting]);

  return {
    cards,
    top,
    status,
    loadError,
    notice,
    exiting: exiting && top && exiting.userId === top.user.id ? exiting.direction : null,
    canRewind: rewindable > 0,
    decide,
    rewind,
    refresh: load,
  };
}
