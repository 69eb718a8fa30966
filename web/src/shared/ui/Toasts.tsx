import { CloseIcon } from './icons';

export interface Toast {
  id: number;
  text: string;
}

/**
 * Toasts stack at the top centre, below the header (whose menu, profile and login stay
 * reachable on a phone while several toasts show) and clear of the buttons of bottom-sheet
 * dialogs.
 */
export function ToastViewport({ toasts, onDismiss }: { toasts: readonly Toast[]; onDismiss: (id: number) => void }) {
  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 top-[4.5rem] z-[80] flex flex-col items-center gap-2 px-4"
    >
      {toasts.map((toast) => (
        <div
          key={toast.id}
          role="status"
          className="pointer-events-auto flex max-w-md animate-toast-in items-center gap-3 rounded-2xl bg-slate-900 px-4 py-3 text-sm font-medium text-white shadow-lg"
        >
          <span>{toast.text}</span>
          <button
            type="button"
            onClick={() => onDismiss(toast.id)}
            aria-label="Dismiss"
            className="-mr-1 rounded-full p-0.5 text-slate-500 hover:text-white"
          >
            <CloseIcon className="size-4" />
          </button>
        </div>
      ))}
    </div>
  );
}
