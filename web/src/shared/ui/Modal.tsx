import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { CloseIcon } from './icons';
import { useLatest } from '../hooks/useLatest';

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Stacks above other modals (an error popup over the login dialog). */
  elevated?: boolean;
  /** Room for a table on wide screens; phones get the full width either way. */
  wide?: boolean;
}

const FOCUSABLE = 'input:not([disabled]):not([readonly]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), [href]';

/**
 * The dialog every popup is made of: focus moves in and stays in (the rest of the page is
 * inert while it is open, and Tab wraps around inside it), Escape and a click on the backdrop close
 * it, and focus goes back to where it was.
 */
export function Modal({ title, onClose, children, elevated = false, wide = false }: ModalProps) {
  const titleId = useId();
  const backdrop = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const latestOnClose = useLatest(onClose);

  useEffect(() => {
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // A marked control wins over the first one in document order (the close button).
    const first = panel.current?.querySelector<HTMLElement>('[data-autofocus]') ?? panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel.current)?.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (!panel.current?.contains(document.activeElement)) return;
      if (event.key === 'Escape') {
        event.stopPropagation();
        latestOnClose.current();
      } else if (event.key === 'Tab') {
        wrapFocus(panel.current, event);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    const madeInert = inertOutside(backdrop.current);
    return () => {
      madeInert.forEach((element) => element.removeAttribute('inert'));
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = overflow;
      previouslyFocused?.focus();
    };
  }, [latestOnClose]);

  return createPortal(
    <div
      ref={backdrop}
      className={`fixed inset-0 flex animate-fade-in items-end justify-center bg-slate-900/50 p-0 sm:items-center sm:p-4 ${elevated ? 'z-[60]' : 'z-50'}`}
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`max-h-[90dvh] w-full overflow-y-auto rounded-t-3xl bg-white p-6 shadow-2xl sm:rounded-3xl ${wide ? 'sm:max-w-2xl' : 'sm:max-w-md'}`}
      >
        <div className="mb-5 flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-xl font-bold tracking-tight text-slate-900">
            {title}
          </h2>
          <button
            type="button"
            onClick={onClose}
            aria-label="Close"
            className="-mt-1 -mr-2 rounded-full p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-700"
          >
            <CloseIcon />
          </button>
        </div>
        {children}
      </div>
    </div>,
    document.body,
  );
}

/**
 * Makes everything beside the dialog inert (unfocusable, hidden from assistive technology)
 * and returns what it changed. A dialog opened over another one makes the lower one inert
 * too, and gives it back when it closes.
 */
function inertOutside(dialog: HTMLElement | null): Element[] {
  if (!dialog) return [];
  const others = Array.from(document.body.children).filter((element) => element !== dialog && !element.hasAttribute('inert'));
  others.forEach((element) => element.setAttribute('inert', ''));
  return others;
}

/** Tab past the last control comes back to the first (and Shift+Tab the other way), not to the browser's own bar. */
function wrapFocus(panel: HTMLElement, event: KeyboardEvent): void {
  const controls = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE));
  const first = controls[0];
  const last = controls[controls.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === panel)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}
