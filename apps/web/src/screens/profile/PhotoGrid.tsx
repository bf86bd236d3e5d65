import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import {
  SortableContext,
  arrayMove,
  rectSortingStrategy,
  sortableKeyboardCoordinates,
  useSortable,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { PhotoDto } from '@mate/contracts';
import { Badge, Button, Icon, cx } from '@mate/ui';
import { usePhotoUrl } from '../../profile/usePhotos';

export interface PhotoGridProps {
  photos: PhotoDto[];
  /** The whole list in its new order, after a drag or a keyboard move. */
  onReorder: (photos: PhotoDto[]) => void;
  onSetPrimary: (photo: PhotoDto) => void;
  onDelete: (photo: PhotoDto) => void;
  /** A photo whose call is running: its buttons wait. */
  busyId?: string | null;
}

const INSTRUCTIONS =
  'To move a photo, press Space or Enter on its reorder handle, use the arrow keys to move it, ' +
  'then press Space or Enter to drop it, or Escape to cancel.';

function positionOf(photos: PhotoDto[], id: UniqueIdentifier | undefined): number {
  return photos.findIndex((photo) => photo.id === id) + 1;
}

/** Spoken while dragging: "Photo 2 … position 3 of 4" in the grid's own words. */
function announcementsFor(photos: PhotoDto[]): Announcements {
  const total = photos.length;
  return {
    onDragStart: ({ active }) => `Picked up photo ${positionOf(photos, active.id)}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `Photo ${positionOf(photos, active.id)} is over position ${positionOf(photos, over.id)} of ${total}.`
        : `Photo ${positionOf(photos, active.id)} is not over a position.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `Photo ${positionOf(photos, active.id)} was dropped at position ${positionOf(photos, over.id)} of ${total}.`
        : `Photo ${positionOf(photos, active.id)} was dropped.`,
    onDragCancel: ({ active }) => `Moving cancelled. Photo ${positionOf(photos, active.id)} stays where it was.`,
  };
}

interface TileProps {
  photo: PhotoDto;
  position: number;
  busy: boolean;
  onSetPrimary: () => void;
  onDelete: () => void;
}

function PhotoTile({ photo, position, busy, onSetPrimary, onDelete }: TileProps) {
  const photoUrl = usePhotoUrl();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: photo.id,
  });
  return (
    <li
      ref={setNodeRef}
      aria-label={`Photo ${position}`}
      className={cx('photo-tile', photo.isPrimary && 'photo-tile--primary', isDragging && 'photo-tile--dragging')}
      style={{ transform: CSS.Translate.toString(transform), transition }}
    >
      <div className="photo-tile__frame">
        {/* A tile is at most 250 px wide (3:4): the 600 px file is sharp at 2x. Past a phone's first row, they wait. */}
        <img
          src={photoUrl(photo.url, 'medium')}
          alt={`Photo ${position}`}
          className="photo-tile__img"
          loading={position > 2 ? 'lazy' : undefined}
          decoding="async"
          draggable={false}
        />
        {photo.isPrimary && (
          <Badge tone="accent" className="photo-tile__badge">
            <Icon name="star" size={12} />
            Primary
          </Badge>
        )}
        <button
          ref={setActivatorNodeRef}
          type="button"
          className="photo-tile__handle"
          {...attributes}
          {...listeners}
          aria-label={`Reorder photo ${position}`}
        >
          <Icon name="grip" size={20} />
        </button>
      </div>
      <div className="photo-tile__actions">
        {!photo.isPrimary && (
          <Button variant="secondary" className="photo-tile__button" onClick={onSetPrimary} disabled={busy}>
            Set as primary
          </Button>
        )}
        <Button variant="ghost" className="photo-tile__button photo-tile__delete" onClick={onDelete} disabled={busy}>
          Delete
        </Button>
      </div>
    </li>
  );
}

/**
 * The drag-to-reorder grid of spec 000 §2 (@dnd-kit sortable). Each tile drags by its handle,
 * with a pointer or the keyboard (Space, arrows, Space); a drop hands the new order up.
 */
export function PhotoGrid({ photos, onReorder, onSetPrimary, onDelete, busyId }: PhotoGridProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = photos.findIndex((photo) => photo.id === active.id);
    const to = photos.findIndex((photo) => photo.id === over.id);
    if (from < 0 || to < 0) return;
    onReorder(arrayMove(photos, from, to));
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements: announcementsFor(photos),
        screenReaderInstructions: { draggable: INSTRUCTIONS },
      }}
    >
      <SortableContext items={photos.map((photo) => photo.id)} strategy={rectSortingStrategy}>
        <ul className="photo-grid" aria-label="Your photos">
          {photos.map((photo, index) => (
            <PhotoTile
              key={photo.id}
              photo={photo}
              position={index + 1}
              busy={busyId === photo.id}
              onSetPrimary={() => onSetPrimary(photo)}
              onDelete={() => onDelete(photo)}
            />
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}
