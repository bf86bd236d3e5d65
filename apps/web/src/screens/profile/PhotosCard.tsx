import { MAX_PHOTOS, type PhotoDto } from '@mate/contracts';
import { Alert, Button, Card, ConfirmDialog, EmptyState, Icon, Spinner } from '@mate/ui';
import { useState } from 'react';
import { useDeletePhoto, usePhotos, useReorderPhotos, useSetPrimaryPhoto } from '../../profile/usePhotos';
import { PhotoGrid } from './PhotoGrid';
import { PhotoUpload } from './PhotoUpload';

/** Spec 000 §8 alerts after a failed photo action. */
export const PhotoAlerts = {
  deleteFailed: 'Failed to delete photo',
  setPrimaryFailed: 'Failed to set primary photo',
  reorderFailed: 'Failed to reorder photos',
} as const;

/** Photos (up to 6): the count, the sortable grid, the upload control and the delete question. */
export function PhotosCard() {
  const photos = usePhotos();
  const deletePhoto = useDeletePhoto();
  const setPrimary = useSetPrimaryPhoto();
  const reorder = useReorderPhotos();
  const [pendingDelete, setPendingDelete] = useState<PhotoDto | null>(null);

  const list = photos.data ?? [];
  const busyId = deletePhoto.isPending
    ? deletePhoto.variables
    : setPrimary.isPending
      ? setPrimary.variables
      : null;

  const confirmDelete = () => {
    if (!pendingDelete) return;
    const { id } = pendingDelete;
    setPendingDelete(null);
    deletePhoto.mutate(id, { onError: () => window.alert(PhotoAlerts.deleteFailed) });
  };

  const makePrimary = (photo: PhotoDto) =>
    setPrimary.mutate(photo.id, { onError: () => window.alert(PhotoAlerts.setPrimaryFailed) });

  const onReorder = (next: PhotoDto[]) =>
    reorder.mutate(next, { onError: () => window.alert(PhotoAlerts.reorderFailed) });

  return (
    <Card
      title="Photos"
      description={`${list.length}/${MAX_PHOTOS} photos uploaded`}
      icon={<Icon name="camera" size={20} />}
      className="profile-photos"
    >
      {photos.isPending ? (
        <div className="screen--center">
          <Spinner label="Loading photos..." showLabel />
        </div>
      ) : photos.isError ? (
        <Alert tone="error" title="Failed to fetch photos">
          {photos.error.message}
          <div className="alert-actions">
            <Button variant="secondary" onClick={() => void photos.refetch()}>
              Try Again
            </Button>
          </div>
        </Alert>
      ) : (
        <>
          {list.length === 0 ? (
            <EmptyState
              icon={<Icon name="camera" size={32} />}
              title="No photos yet"
              description="Add a photo so people can see who they're talking to."
            />
          ) : (
            <>
              <p className="profile-photos__hint">
                Drag a photo by its handle to change the order. The primary photo is the one people see first.
              </p>
              <PhotoGrid
                photos={list}
                onReorder={onReorder}
                onSetPrimary={makePrimary}
                onDelete={setPendingDelete}
                busyId={busyId}
              />
            </>
          )}
          {list.length < MAX_PHOTOS && <PhotoUpload />}
        </>
      )}

      <ConfirmDialog
        open={pendingDelete !== null}
        title="Delete Photo"
        message="Are you sure you want to delete this photo?"
        confirmLabel="Delete"
        tone="danger"
        onConfirm={confirmDelete}
        onCancel={() => setPendingDelete(null)}
      />
    </Card>
  );
}
