import { SafetyTexts } from '@mate/contracts';
import { Button, Icon } from '@mate/ui';
import { useEffect, useId, useRef, useState } from 'react';
import { BlockDialog, ReportDialog, UnmatchDialog } from '../../safety/SafetyDialogs';
import { useReloadAfterSafetyAction } from '../../safety/useSafety';

const ACTIONS = [SafetyTexts.unmatch, SafetyTexts.block, SafetyTexts.report] as const;
type SafetyAction = (typeof ACTIONS)[number];

/**
 * The chat header's safety menu (spec 000 §2): Unmatch, Block and Report, each with its dialog
 * (spec 000 §4). A block or an unmatch ends the conversation: after the success text the page
 * reloads onto Messages, where it no longer shows. A report leaves the member in the chat.
 */
export function SafetyMenu({ userId, name }: { userId: string; name: string }) {
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

  const reload = useReloadAfterSafetyAction();

  const choose = (action: SafetyAction) => {
    setOpen(false);
    setChosen(action);
  };
  // Focus comes back to the menu button once a dialog that leaves the member here has closed.
  const refocus = useRef(false);
  useEffect(() => {
    if (chosen !== null || !refocus.current) return;
    refocus.current = false;
    toggleRef.current?.focus();
  }, [chosen]);
  const cancel = () => {
    refocus.current = true;
    setChosen(null);
  };
  const ended = () => {
    setChosen(null);
    reload(userId);
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
      {chosen === SafetyTexts.unmatch && (
        <UnmatchDialog userId={userId} name={name} onCancel={cancel} onDone={ended} />
      )}
      {chosen === SafetyTexts.block && (
        <BlockDialog userId={userId} name={name} onCancel={cancel} onDone={ended} />
      )}
      {chosen === SafetyTexts.report && (
        <ReportDialog userId={userId} name={name} onCancel={cancel} onDone={cancel} />
      )}
    </div>
  );
}
