import { AdminMessages, displayMessage, photoPathAtSize } from '@mate/api-client';
import { PHOTO_CLASSES, PHOTO_REJECTION_REASON_MAX_LENGTH, type PendingPhotoDto } from '@mate/contracts';
import { Button, Card, EmptyState, Icon, Spinner, Textarea, buttonClassName, PageHeader } from '@mate/ui';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useApi } from '../../api/ApiContext';
import { useBrowser } from '../../browser/AdminBrowser';
import { ErrorCard } from '../../components/ErrorCard';
import { StatCard } from '../../components/StatCard';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { count, formatDateTime, messageOf, orNA, percent } from '../../lib/format';
import { usePhotoDecision, usePhotoQueue, type PhotoDecision } from './usePhotoQueue';

const BACK = { to: '/admin', label: 'Back to Dashboard' };

function uploader(photo: PendingPhotoDto): string {
  return photo.userName ?? 'Unknown User';
}

/** `/admin/photos` (spec 001 §2 Photo moderation queue). */
export function PhotoModerationScreen() {
  useDocumentTitle('Photo Moderation');
  const queue = usePhotoQueue();
  const decide = usePhotoDecision();
  const browser = useBrowser();
  const { admin } = useApi();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [reason, setReason] = useState('');

  const photos = queue.data?.photos ?? [];
  const selected = photos.find((photo) => photo.id === selectedId) ?? null;
  const trimmedReason = reason.trim();

  const select = (photoId: string) => {
    setSelectedId(photoId);
    setReason('');
  };

  const run = (decision: PhotoDecision) => {
    decide.mutate(decision, {
      onSuccess: () => {
        // The queue reloads; the selection clears if it was this photo.
        setSelectedId((current) => (current === decision.photoId ? null : current));
        setReason('');
      },
      onError: (error) =>
        browser.alert(
          messageOf(
            error,
            decision.kind === 'approve' ? AdminMessages.approvePhotoFailed : AdminMessages.rejectPhotoFailed,
          ),
        ),
    });
  };

  const reject = () => {
    if (!selected) return;
    if (!trimmedReason) {
      browser.alert(AdminMessages.rejectionReasonRequired);
      return;
    }
    run({ photoId: selected.id, kind: 'reject', reason: trimmedReason });
  };

  return (
    <div className="admin-screen">
      <PageHeader back={BACK} title="Photo Moderation" subtitle="Review photos before members see them" />

      {queue.error && !queue.data ? (
        <ErrorCard message={displayMessage(queue.error, AdminMessages.photosLoadFailed)} />
      ) : queue.isPending ? (
        <div className="admin-loading">
          <Spinner size="sm" />
          <p>Loading photos...</p>
        </div>
      ) : (
        <>
          <section className="stat-grid stat-grid--3" aria-label="Photo statistics">
            <StatCard
              label="Total Pending"
              icon="clock"
              tone="warning"
              value={count(queue.data?.stats.totalPending)}
            />
            <StatCard
              label="Approved Today"
              icon="check"
              tone="success"
              value={count(queue.data?.stats.approvedToday)}
            />
            <StatCard
              label="Rejected Today"
              icon="ban"
              tone="danger"
              value={count(queue.data?.stats.rejectedToday)}
            />
          </section>

          <div className="photo-review">
            {photos.length === 0 ? (
              <Card>
                <EmptyState
                  icon={<Icon name="check" size={28} />}
                  title="All caught up!"
                  description="No pending photos to review"
                />
              </Card>
            ) : (
              <ul className="photo-grid" aria-label="Pending photos">
                {photos.map((photo) => (
                  <li key={photo.id}>
                    <button
                      type="button"
                      className={photo.id === selectedId ? 'photo-tile photo-tile--selected' : 'photo-tile'}
                      aria-pressed={photo.id === selectedId}
                      onClick={() => select(photo.id)}
                    >
                      {/* A tile of 150-250 px: the 600 px file; the one opened for review is the large one. */}
                      <img
                        src={admin.apiUrl(photoPathAtSize(photo.url, 'medium'))}
                        alt={`Photo by ${uploader(photo)}`}
                        loading="lazy"
                        decoding="async"
                      />
                      <span className="photo-tile__name">{uploader(photo)}</span>
                      <span className="photo-tile__meta">
                        {orNA(photo.userAge)} · {orNA(photo.userGender)}
                      </span>
                      {photo.riskScore !== null && (
                        <span className="photo-tile__risk">Risk {percent(photo.riskScore)}</span>
                      )}
                    </button>
                  </li>
                ))}
              </ul>
            )}

            <Card className="photo-detail" title={selected ? 'Review Photo' : undefined} titleLevel={2}>
              {selected ? (
                <div className="photo-detail__body">
                  <img
                    className="photo-detail__image"
                    src={admin.apiUrl(photoPathAtSize(selected.url, 'large'))}
                    alt={`Selected photo by ${uploader(selected)}`}
                  />
                  <dl className="detail-fields">
                    <div className="detail-field">
                      <dt>Name</dt>
                      <dd>{uploader(selected)}</dd>
                    </div>
                    <div className="detail-field">
                      <dt>Email</dt>
                      <dd>{orNA(selected.userEmail)}</dd>
                    </div>
                    <div className="detail-field">
                      <dt>Age</dt>
                      <dd>{orNA(selected.userAge)}</dd>
                    </div>
                    <div className="detail-field">
                      <dt>Gender</dt>
                      <dd>{orNA(selected.userGender)}</dd>
                    </div>
                    <div className="detail-field">
                      <dt>Uploaded</dt>
                      <dd>{formatDateTime(selected.createdAt)}</dd>
                    </div>
                    <div className="detail-field">
                      <dt>Risk score</dt>
                      <dd>{selected.riskScore === null ? 'Not scored yet' : percent(selected.riskScore)}</dd>
                    </div>
                    {selected.scores && (
                      <div className="detail-field">
                        <dt>Classifier scores</dt>
                        <dd>
                          <ul className="photo-scores" aria-label="Classifier scores">
                            {PHOTO_CLASSES.map((name) => (
                              <li key={name}>
                                {name}: {percent(selected.scores?.[name])}
                              </li>
                            ))}
                          </ul>
                        </dd>
                      </div>
                    )}
                    <div className="detail-field">
                      <dt>Visible to members</dt>
                      <dd>{selected.hiddenFromMembers ? 'No (hidden until approved)' : 'Yes'}</dd>
                    </div>
                  </dl>
                  <Link
                    to={`/admin/users/${encodeURIComponent(selected.userId)}`}
                    className={buttonClassName({ variant: 'secondary', fullWidth: true })}
                  >
                    View Full Profile
                  </Link>
                  <Button
                    fullWidth
                    loading={decide.isPending}
                    onClick={() => run({ photoId: selected.id, kind: 'approve' })}
                    icon={<Icon name="check" size={18} />}
                  >
                    Approve Photo
                  </Button>
                  <Textarea
                    label="Rejection reason"
                    rows={3}
                    maxLength={PHOTO_REJECTION_REASON_MAX_LENGTH}
                    value={reason}
                    onChange={(event) => setReason(event.target.value)}
                    hint={trimmedReason ? undefined : AdminMessages.rejectionReasonRequired}
                  />
                  <Button
                    variant="danger"
                    fullWidth
                    disabled={!trimmedReason || decide.isPending}
                    onClick={reject}
                    icon={<Icon name="ban" size={18} />}
                  >
                    Reject Photo
                  </Button>
                </div>
              ) : (
                <p className="admin-empty">Select a photo to review</p>
              )}
            </Card>
          </div>
        </>
      )}
    </div>
  );
}
