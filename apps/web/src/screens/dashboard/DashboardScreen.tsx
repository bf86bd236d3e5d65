import { DASHBOARD_USER_ID_PREFIX_LENGTH } from '@mate/contracts';
import { Avatar, Badge, Button, Card, Icon, Logo, Spinner, type IconName } from '@mate/ui';
import { useAuth } from '../../auth/AuthContext';
import { conversationsWithMessages, useConversations } from '../../chat/useConversations';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useProfileCompletion } from '../../profile/useProfileCompletion';
import { usePhotoUrl } from '../../profile/usePhotos';
import { useMatchStats } from './useMatchStats';

const COMING_SOON: Array<{ icon: IconName; label: string }> = [
  { icon: 'user', label: 'Complete your profile' },
  { icon: 'sparkles', label: 'Smart matching algorithm' },
  { icon: 'messages', label: 'Real-time chat' },
  { icon: 'camera', label: 'Photo uploads' },
  { icon: 'filter', label: 'Advanced filters' },
];

/**
 * Spec 000 §1's stats card: Matches, Messages and Likes, all real: Matches and Likes (received)
 * from matching (issue 8); Messages is the number of conversations with at least one message (issue 9).
 */
const STATS = ['Matches', 'Messages', 'Likes'] as const;
type StatLabel = (typeof STATS)[number];

const PHASE_ONE: Array<{ label: string; done: boolean }> = [
  { label: 'Authentication', done: true },
  { label: 'Database', done: true },
  { label: 'Glass UI', done: true },
  { label: 'Profiles', done: false },
  { label: 'Matching', done: false },
];

/** `/dashboard`: the early placeholder dashboard of spec 000 §1. */
export function DashboardScreen() {
  const { user, profile, logout } = useAuth();
  const completion = useProfileCompletion();
  const stats = useMatchStats();
  const conversations = useConversations();
  const photoUrl = usePhotoUrl();
  useDocumentTitle('Dashboard');
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

      <div className="dashboard__grid">
        <Card className="dashboard__welcome" tone="accent" padding="lg">
          <div className="dashboard__welcome-row">
            <Avatar name={name} src={photoUrl(profile?.profilePicture)} size="xl" />
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
        </Card>

        <Card title="Your Stats" icon={<Icon name="chart" size={20} />} className="dashboard__stats">
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

        <Card
          title="Coming Soon"
          description="What we're building next"
          icon={<Icon name="clock" size={20} />}
          className="dashboard__coming"
        >
          <ul className="dashboard__list">
            {COMING_SOON.map((item) => (
              <li key={item.label}>
                <span className="dashboard__list-icon" aria-hidden="true">
                  <Icon name={item.icon} size={18} />
                </span>
                {item.label}
              </li>
            ))}
          </ul>
        </Card>

        <Card
          title="Phase 1: Foundation"
          description="The groundwork is in place. Profiles and Matching are next."
          icon={<Icon name="sparkles" size={20} />}
          className="dashboard__phase"
        >
          <ul className="dashboard__phase-list">
            {PHASE_ONE.map((item) => (
              <li key={item.label} className={item.done ? 'is-done' : 'is-coming'}>
                <span aria-hidden="true" className="dashboard__phase-mark">
                  <Icon name={item.done ? 'check' : 'clock'} size={16} />
                </span>
                <span className="dashboard__phase-label">{item.label}</span>
                <Badge tone={item.done ? 'success' : 'neutral'}>{item.done ? 'Done' : 'Coming'}</Badge>
              </li>
            ))}
          </ul>
        </Card>
      </div>
    </div>
  );
}
