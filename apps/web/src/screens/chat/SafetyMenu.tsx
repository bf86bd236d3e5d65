import { Button, Dialog, Icon } from '@mate/ui';
import { useEffect, useId, useRef, useState } from 'react';

const ACTIONS = ['Unmatch', 'Block', 'Report'] as const;
type SafetyAction = (typeof ACTIONS)[number];

/** What each action will do once the safety release wires it (spec 000 §4 Safety actions). */
const COMING: Record<SafetyAction, string> = {
  Unmatch: 'Unmatching ends this conversation and removes the match.',
  Block: "Blocking ends the match and you won't see each other anymore.",
  Report: 'Reporting tells our moderators about this member, in confidence.',
};

/**
 * The chat header's safety menu (spec 000 §2): Unmatch, Block and Report. The safety issue wires
 * them; until then each opens a dialog that says so, never a dead button.
 */
export function SafetyMenu({ name }: { name: string }) {
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<SafetyAction | null>(null);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const firstItemRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    firstItemRef.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open]);

  const choose = (action: SafetyAction) => {
    setOpen(false);
    setChosen(action);
  };

  return (
    <div className="safety-menu" ref={rootRef}>
      <Button
        ref={toggleRef}
        variant="secondary"
        className="chat-header__icon-button"
        icon={<Icon name="shield" size={20} />}
        aria-label="Safety options"
        title="Safety options"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
      />
      {open && (
        <div id={menuId} role="menu" aria-label="Safety options" className="safety-menu__list">
          {ACTIONS.map((action, index) => (
            <button
              key={action}
              ref={index === 0 ? firstItemRef : undefined}
              type="button"
              role="menuitem"
              className={
                action === 'Unmatch' ? 'safety-menu__item' : 'safety-menu__item safety-menu__item--danger'
              }
              onClick={() => choose(action)}
            >
              {action}
            </button>
          ))}
        </div>
      )}
      <Dialog
        open={chosen !== null}
        title={chosen ? `${chosen} ${name}` : ''}
        description={chosen ? `${COMING[chosen]} This arrives with the safety release.` : undefined}
        onClose={() => setChosen(null)}
        footer={<Button onClick={() => setChosen(null)}>OK</Button>}
      />
    </div>
  );
}
