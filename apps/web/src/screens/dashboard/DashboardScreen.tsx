import { DASHBOARD_USER_ID_PREFIX_LENGTH } from '@mate/contracts';
import { Avatar, Button, buttonClassName, Card, Icon, Logo, Spinner } from '@mate/ui';
import { useDeferredValue } from 'react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext';
import { conversationsWithMessages, useConversations } from '../../chat/useConversations';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useProfileCompletion } from '../../profile/useProfileCompletion';
import { usePhotoSrcSet, usePhotoUrl } from '../../profile/usePhotos';
import { LikesReceivedCard } from './LikesReceivedCard';
import { NewMatchesCard } from './NewMatchesCard';
import { ProfileChecklistCard } from './ProfileChecklistCard';
import { UnreadConversationsCard } from './UnreadConversationsCard';
import { useLiveHome } from './useHome';
import { useMatchStats } from './useMatchStats';
import './dashboard.css';

/**
 * Spec 000 §1's stats card: Matches, Messages and Likes, all real: Matches and Likes (received)
 * from matching (issue 8); Messages is the number of conversations with at least one message (issue 9).
 */
const STATS = ['Matches', 'Messages', 'Likes'] as const;
type StatLabel = (typeof STATS)[number];

/**
 * `/dashboard`, the member's home (issue 25): what lasts of spec 000 §1's early dashboard (the
 * header with Sign Out, the welcome card, the stats with real numbers), then what a member opens
 * the app for: the way into Discover, new matches, who liked you (free: Mate has no paid tier),
 * unread conversations and what would complete the profile. Each section loads and fails on its
 * own; matches, likers and stats follow `new_match` live, the conversations the chat sync context.
 */
export function DashboardScreen() {
  const { user, profile, logout } = useAuth();
  const completion = useProfileCompletion();
  const stats = useMatchStats();
  const conversations = useConversations();
  const photoUrl = usePhotoUrl();
  const photoSrcSet = usePhotoSrcSet();
  useDocumentTitle('Dashboard');
  useLiveHome();
  // The sections below the welcome and the stats come in a second, deferred render (issue 26): the
  // first paint carries only the top of the home, and React draws the rest in slices between which
  // the page answers input, instead of the whole home in one long task. They are appended below,
  // so nothing drawn moves.
  const sectionsShown = useDeferredValue(true, false);
  if (!user) return null;

  const name = user.name || profile?.name || 'Friend';
  const counts: Record<StatLabel, number | undefined> = {
    Matches: stats.data?.matches,
    Messages: conversations.data ? conversationsWithMessages(conversations.data) : undefined,
    Likes: stats.data?.likesReceived,
  };
  return (
    <div className="screen dashboard">
      <Card as="div" className="dashboard__header">
        <div className="dashboard__brand">
          <Logo size={48} />
          <div>
            <h1 className="dashboard__title">Mate</h1>
            <p className="dashboard__subtitle">AI-Driven Dating Platform</p>
          </div>
        </div>
        <Button variant="secondary" icon={<Icon name="logout" size={18} />} onClick={() => void logout()}>
          Sign Out
        </Button>
      </Card>

      <div className="home__grid">
        <Card className="dashboard__welcome home__welcome" tone="accent" padding="lg">
          <div className="dashboard__welcome-row">
            <Avatar
              name={name}
              src={photoUrl(profile?.profilePicture, 'thumb')}
              srcSet={photoSrcSet(profile?.profilePicture)}
              size="xl"
            />
            <div className="dashboard__welcome-text">
              <h2 className="dashboard__greeting">Welcome, {name}!</h2>
              <dl className="dashboard__facts">
                <div>
                  <dt>Email</dt>
                  <dd>{user.email}</dd>
                </div>
                <div>
                  <dt>User ID</dt>
                  <dd className="dashboard__mono">{user.id.slice(0, DASHBOARD_USER_ID_PREFIX_LENGTH)}...</dd>
                </div>
              </dl>
            </div>
          </div>
          <Link to="/discover" className={buttonClassName({ size: 'lg', className: 'home__discover' })}>
            <span className="mate-btn__icon" aria-hidden="true">
              <Icon name="compass" size={20} />
            </span>
            Discover people
          </Link>
        </Card>

        <Card
          title="Your Stats"
          icon={<Icon name="chart" size={20} />}
          className="dashboard__stats home__stats"
        >
          <div className="dashboard__completion">
            <div className="dashboard__completion-row">
              <span id="completion-label">Profile completion</span>
              {completion.isSuccess ? (
                <strong>{completion.data}%</strong>
              ) : completion.isPending ? (
                <Spinner size="sm" label="Loading profile completion..." />
              ) : (
                <strong aria-label="Not available">—</strong>
              )}
            </div>
            <div
              className="dashboard__meter"
              role="progressbar"
              aria-labelledby="completion-label"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={completion.isSuccess ? completion.data : undefined}
              aria-busy={completion.isPending || undefined}
            >
              <span style={{ width: `${completion.isSuccess ? completion.data : 0}%` }} />
            </div>
          </div>
          <dl className="dashboard__counts">
            {STATS.map((label) => (
              <div key={label} className="dashboard__count">
                <dt>{label}</dt>
                <dd>
                  {counts[label] !== undefined ? (
                    counts[label]
                  ) : (label === 'Messages' ? conversations.isPending : stats.isPending) ? (
                    <Spinner size="sm" label={`Loading ${label.toLowerCase()}...`} />
                  ) : (
                    <span aria-label="Not available">—</span>
                  )}
                </dd>
              </div>
            ))}
          </dl>
        </Card>

        {sectionsShown && (
          <>
            <NewMatchesCard />
            <UnreadConversationsCard />
            <LikesReceivedCard />
            <ProfileChecklistCard />
          </>
        )}
      </div>
    </div>
  );
}
