import { act } from '@testing-library/react';
import { createElement, useSyncExternalStore, type ReactElement, type ReactNode } from 'react';
import { vi, type Mock } from 'vitest';
import {
  CallContext,
  IDLE_CALL_STATE,
  type CallActions,
  withPhase,
  type CallContextValue,
  type CallState,
} from '../call/call-types';

type MockedActions = { [K in keyof CallActions]: Mock<CallActions[K]> };

export interface FakeCall {
  /** What the screens see now. */
  readonly state: CallState;
  /** The actions, as mocks; by default they move the state as the CallProvider would. */
  readonly actions: MockedActions;
  /** Moves the call on (the other member answers, hangs up, a subtitle arrives...). */
  set(changes: Partial<CallState>): void;
  /** `children` with this call around them: `renderWithApp(api, { children: call.wrap(<AppRoutes />) })`. */
  wrap(children: ReactNode): ReactElement;
}

/** Spec 000 §3's flags, derived from the phase by the provider's own helper. */
const withFlags = (state: CallState): CallState => withPhase(state, state.phase);

/**
 * The live call as the screens see it through useCall(), standing in for the CallProvider (whose
 * own tests drive the browser's media and peer): a state a test sets, and actions that are mocks.
 * The default actions follow the contract of call-types.ts: startCall enters `calling` with that
 * member, answer enters `connecting`, reject returns to idle, end enters `ended` by 'self', the
 * toggles flip their flag. A test replaces one with `actions.answer.mockRejectedValue(...)`.
 */
export function fakeCall(initial: Partial<CallState> = {}): FakeCall {
  let state = withFlags({ ...IDLE_CALL_STATE, ...initial });
  const listeners = new Set<() => void>();
  const apply = (changes: Partial<CallState>) => {
    state = withFlags({ ...state, ...changes });
    listeners.forEach((listener) => listener());
  };

  const actions: MockedActions = {
    startCall: vi.fn(async (userId: string, name: string) => {
      apply({
        ...IDLE_CALL_STATE,
        subtitlesAvailable: state.subtitlesAvailable,
        phase: 'calling',
        peerId: userId,
        peerName: name,
      });
    }),
    answer: vi.fn(async () => {
      apply({ phase: 'connecting' });
    }),
    reject: vi.fn(() => apply({ ...IDLE_CALL_STATE, subtitlesAvailable: state.subtitlesAvailable })),
    end: vi.fn(() =>
      apply({ phase: 'ended', endedBy: 'self', localStream: null, remoteStream: null, subtitlesOn: false }),
    ),
    toggleMute: vi.fn(() => apply({ muted: !state.muted })),
    toggleCamera: vi.fn(() => apply({ cameraOff: !state.cameraOff })),
    toggleSubtitles: vi.fn(() => apply({ subtitlesOn: !state.subtitlesOn })),
  };

  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const getSnapshot = () => state;

  function FakeCallProvider({ children }: { children: ReactNode }) {
    const current = useSyncExternalStore(subscribe, getSnapshot);
    const value: CallContextValue = { ...current, ...actions };
    return createElement(CallContext.Provider, { value }, children);
  }

  return {
    get state() {
      return state;
    },
    actions,
    set(changes) {
      act(() => apply(changes));
    },
    wrap(children) {
      return createElement(FakeCallProvider, null, children);
    },
  };
}

/** A stand-in for a MediaStream (jsdom has none): the screens only hand it to a <video>. */
export function fakeMediaStream(id: string): MediaStream {
  return { id } as unknown as MediaStream;
}
