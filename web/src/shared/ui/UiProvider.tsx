import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { TOAST_DURATION_MS } from '../constants';
import { describeError } from '../errors';
import { BlockingOverlay } from './BlockingOverlay';
import { ConfirmDialog } from './ConfirmDialog';
import { ErrorPopup } from './ErrorPopup';
import { ToastViewport, type Toast } from './Toasts';
import { UiContext, type Ui } from './uiContext';

interface ShownError {
  lines: string[];
  title?: string;
}

/** Hosts the app-wide toasts, error popup and blocking overlay. */
export function UiProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [error, setError] = useState<ShownError | null>(null);
  const [question, setQuestion] = useState<string | null>(null);
  const answerQuestion = useRef<((yes: boolean) => void) | null>(null);
  const [blockers, setBlockers] = useState<Array<{ id: number; title?: string }>>([]);
  const nextId = useRef(0);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  const dismissToast = useCallback((id: number) => setToasts((list) => list.filter((toast) => toast.id !== id)), []);

  const ui = useMemo<Ui>(
    () => ({
      toast(text, durationMs = TOAST_DURATION_MS) {
        const id = ++nextId.current;
        setToasts((list) => [...list, { id, text }]);
        const timer = setTimeout(() => {
          timers.current.delete(timer);
          dismissToast(id);
        }, durationMs);
        timers.current.add(timer);
      },
      showError(shown, title) {
        setError({ lines: describeError(shown), title });
      },
      blockWhile(work, title) {
        const id = ++nextId.current;
        setBlockers((list) => [...list, { id, title }]);
        const unblock = () => setBlockers((list) => list.filter((blocker) => blocker.id !== id));
        work.then(unblock, unblock);
        return work;
      },
      confirm(text) {
        // A new question replaces one left open; the earlier asker hears "no".
        answerQuestion.current?.(false);
        return new Promise<boolean>((resolve) => {
          answerQuestion.current = resolve;
          setQuestion(text);
        });
      },
    }),
    [dismissToast],
  );

  const answer = (yes: boolean) => {
    answerQuestion.current?.(yes);
    answerQuestion.current = null;
    setQuestion(null);
  };

  const topBlocker = blockers[blockers.length - 1];
  return (
    <UiContext.Provider value={ui}>
      {children}
      {topBlocker && <BlockingOverlay title={topBlocker.title} />}
      {question !== null && <ConfirmDialog title={question} elevated onConfirm={() => answer(true)} onCancel={() => answer(false)} />}
      {error && <ErrorPopup lines={error.lines} title={error.title} onClose={() => setError(null)} />}
      <ToastViewport toasts={toasts} onDismiss={dismissToast} />
    </UiContext.Provider>
  );
}
