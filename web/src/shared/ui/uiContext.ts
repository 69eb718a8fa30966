import { createContext, useContext } from 'react';

export interface Ui {
  /** Shows a short message that disappears by itself. */
  toast: (text: string, durationMs?: number) => void;
  /** Shows the error popup for a server `errors` value, an ApiError or any thrown value. */
  showError: (error: unknown, title?: string) => void;
  /** Blocks the page behind a loading overlay until the promise settles; returns it. */
  blockWhile: <T>(work: Promise<T>, title?: string) => Promise<T>;
  /** Asks a yes/no question in the styled dialog (never the browser's confirm box); true for yes. */
  confirm: (question: string) => Promise<boolean>;
}

export const UiContext = createContext<Ui | null>(null);

export function useUi(): Ui {
  const ui = useContext(UiContext);
  if (!ui) throw new Error('useUi must be used inside <UiProvider>');
  return ui;
}
