import { CALL_END_REDIRECT_MS, CallTexts } from '@mate/contracts';
import { Alert, Avatar, Icon, buttonClassName } from '@mate/ui';
import { useEffect, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { isLiveCall, useCall, type CallContextValue } from '../../call/call-types';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { memberName } from '../../lib/member-name';
import { StreamVideo } from './StreamVideo';
import { useCallTimer } from './useCallTimer';
import { usePeerPicture } from './usePeerPicture';
import './call.css';

const DASHBOARD = '/dashboard';

/**
 * What this screen shows for /call/{userId}:
 * - live: the call with this member (calling, connecting, in call);
 * - ringing: this member is calling and the Incoming call overlay asks (it opens the screen again on Answer);
 * - over: the call ended, or there is no call with this member (idle, or another member's call):
 *   'Call ended', then /dashboard after 500 ms.
 */
type CallView = 'live' | 'ringing' | 'over';

function viewOf(call: CallContextValue, userId: string): CallView {
  if (call.phase === 'ended' || call.peerId !== userId) return 'over';
  if (call.phase === 'incoming') return 'ringing';
  return isLiveCall(call.phase) ? 'live' : 'over';
}

function titleOf(call: CallContextValue, view: CallView, name: string): string {
  if (view === 'over') return CallTexts.ended;
  if (view === 'ringing') return CallTexts.incomingTitle;
  if (call.phase === 'calling') return CallTexts.calling(name);
  if (call.phase === 'connecting') return CallTexts.connecting;
  return CallTexts.inCall(name);
}

/** `/call/{userId}` (spec 000 §2 Call screen, §4 Live call). Back goes to /dashboard, ending a live call. */
export function CallScreen() {
  const { userId = '' } = useParams();
  const call = useCall();
  const navigate = useNavigate();
  const view = viewOf(call, userId);
  const name = memberName(call.peerName);
  const title = titleOf(call, view, name);
  const picture = usePeerPicture(userId);
  useDocumentTitle(title);

  const timer = useCallTimer(call.answeredAt, view === 'live');

  const over = view === 'over';
  const live = view === 'live';
  useEffect(() => {
    if (!over) return;
    // Ended by the other member (or no call here): say so, then leave (spec 000 §4).
    const redirect = setTimeout(() => void navigate(DASHBOARD, { replace: true }), CALL_END_REDIRECT_MS);
    return () => clearTimeout(redirect);
  }, [over, navigate]);

  const hangUp = () => {
    call.end();
    void navigate(DASHBOARD, { replace: true });
  };

  const showVideo = live && call.remoteStream !== null;
  const error = over || live ? call.error : null;

  return (
    <div className="screen call-screen">
      <header className="call-screen__header">
        <Link
          to={DASHBOARD}
          replace={live}
          className={buttonClassName({ variant: 'ghost', className: 'call-screen__back' })}
          // Leaving a live call ends it, as End does: a call never goes on unseen from here.
          onClick={live ? call.end : undefined}
        >
          <Icon name="arrow-left" size={18} />
          Back to Dashboard
        </Link>
        <div className="call-screen__titles">
          <h1 className="call-screen__title">{title}</h1>
          <span role="timer" aria-label="Call duration" className="call-screen__timer">
            {timer}
          </span>
        </div>
      </header>

      {error && (
        <Alert tone="error" className="call-screen__error">
          {error}
        </Alert>
      )}

      <section className="call-stage" aria-label="Video">
        <StreamVideo
          stream={live ? call.remoteStream : null}
          label="Remote video"
          className={showVideo ? 'call-stage__remote' : 'call-stage__remote call-stage__remote--waiting'}
        />
        {!showVideo && (
          <div className="call-stage__placeholder">
            {view !== 'over' ? (
              <>
                <span className={live ? 'call-stage__halo call-stage__halo--pulse' : 'call-stage__halo'}>
                  <Avatar name={name} src={picture.src} srcSet={picture.srcSet} size="xl" />
                </span>
                <p className="call-stage__status">{name}</p>
              </>
            ) : (
              <span className="call-stage__halo call-stage__halo--ended" aria-hidden="true">
                <Icon name="hang-up" size={36} />
              </span>
            )}
          </div>
        )}

        {live && (
          <div className={call.cameraOff ? 'call-stage__self call-stage__self--off' : 'call-stage__self'}>
            <StreamVideo
              stream={call.localStream}
              label="Your camera"
              self
              className="call-stage__self-video"
            />
            {call.cameraOff && (
              <span className="call-stage__self-off" aria-hidden="true">
                <Icon name="video-off" size={22} />
              </span>
            )}
          </div>
        )}

        {live && (
          <div className="call-stage__bottom">
            <Subtitles call={call} />
            <CallControls call={call} onEnd={hangUp} />
          </div>
        )}
      </section>
    </div>
  );
}

/** The last 3 lines (the state keeps only those), labelled You / Them (spec 000 §2, §9). */
function Subtitles({ call }: { call: CallContextValue }) {
  return (
    <div role="log" aria-label="Subtitles" className="call-subtitles">
      {call.subtitles.length > 0 && (
        <ul className="call-subtitles__lines">
          {call.subtitles.map((line) => (
            <li key={line.id} className={`call-subtitles__line call-subtitles__line--${line.speaker}`}>
              <span className="call-subtitles__speaker">
                {line.speaker === 'local' ? CallTexts.you : CallTexts.them}:
              </span>{' '}
              {line.text}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** One round control of the bar: its accessible name is also its tooltip. */
function ControlButton({
  label,
  icon,
  tone,
  onClick,
}: {
  label: string;
  icon: ReactNode;
  tone?: 'off' | 'on' | 'end';
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={tone ? `call-control call-control--${tone}` : 'call-control'}
      aria-label={label}
      title={label}
      onClick={onClick}
    >
      {icon}
    </button>
  );
}

function CallControls({ call, onEnd }: { call: CallContextValue; onEnd: () => void }) {
  return (
    <div role="group" aria-label="Call controls" className="call-controls">
      <ControlButton
        label={call.muted ? 'Unmute' : 'Mute'}
        icon={<Icon name={call.muted ? 'mic-off' : 'mic'} size={24} />}
        tone={call.muted ? 'off' : undefined}
        onClick={call.toggleMute}
      />
      <ControlButton
        label={call.cameraOff ? 'Turn camera on' : 'Turn camera off'}
        icon={<Icon name={call.cameraOff ? 'video-off' : 'video'} size={24} />}
        tone={call.cameraOff ? 'off' : undefined}
        onClick={call.toggleCamera}
      />
      {call.subtitlesAvailable && (
        <ControlButton
          label={call.subtitlesOn ? 'Hide subtitles' : 'Show subtitles'}
          icon={<Icon name="captions" size={24} />}
          tone={call.subtitlesOn ? 'on' : undefined}
          onClick={call.toggleSubtitles}
        />
      )}
      <ControlButton label="End call" icon={<Icon name="hang-up" size={26} />} tone="end" onClick={onEnd} />
    </div>
  );
}
