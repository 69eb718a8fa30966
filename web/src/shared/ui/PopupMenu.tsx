import { useId, useState, type ReactNode } from 'react';

export interface PopupMenuItem {
  key: string;
  content: ReactNode;
  onSelect: () => void;
}

interface PopupMenuProps {
  /** The trigger button's accessible name. */
  label: string;
  /** What the trigger button shows. */
  trigger: ReactNode;
  /** The trigger's classes, which may depend on whether the menu is open. */
  triggerClassName: string | ((open: boolean) => string);
  items: readonly PopupMenuItem[];
  /** The menu's accessible name, when the trigger's does not say what it lists. */
  menuLabel?: string;
  /** Classes added to the positioned wrapper. */
  className?: string;
  /** The menu is placed against the nearest positioned element holding the button (a message's row, so that a wide menu stays on a phone's screen), not against the button. */
  placedByHolder?: boolean;
  menuClassName: string;
  itemClassName: string;
  /** Shown above the items, inside the menu (a message's reaction bar); it takes the focus when the menu opens. */
  leading?: ReactNode;
  /** Given, the menu opens and closes as its holder says (a long press on a message opens it too). */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

/**
 * A button opening a menu of actions (the WAI-ARIA menu button): the first item takes the
 * focus, so the keyboard can go on; Escape or focus leaving the menu closes it, and so
 * does choosing an item.
 */
export function PopupMenu({ label, trigger, triggerClassName, items, menuLabel, className, menuClassName, itemClassName, leading, placedByHolder = false, ...control }: PopupMenuProps) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = control.open ?? ownOpen;
  const setOpen = control.onOpenChange ?? setOwnOpen;
  const menuId = useId();
  return (
    <div
      className={[placedByHolder ? '' : 'relative', className ?? ''].join(' ').trim()}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setOpen(false);
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        // The menu takes this Escape: what holds it (a chat window) stays open.
        event.preventDefault();
        setOpen(false);
      }}
    >
      <button
        type="button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
        className={typeof triggerClassName === 'string' ? triggerClassName : triggerClassName(open)}
      >
        {trigger}
      </button>
      {open && (
        <div id={menuId} role="menu" aria-label={menuLabel} className={menuClassName}>
          {leading}
          {items.map((item, index) => (
            <button
              key={item.key}
              type="button"
              role="menuitem"
              autoFocus={index === 0 && !leading}
              onClick={() => {
                setOpen(false);
                item.onSelect();
              }}
              className={itemClassName}
            >
              {item.content}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
