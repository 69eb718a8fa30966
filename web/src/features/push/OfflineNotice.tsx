import { useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import { OFFLINE_NOTICE } from './constants';

/**
 * The notice's height while it shows, as a CSS variable on the document: what sticks to the top
 * of the screen (the header, the chat window on a phone) starts below it, so it covers none of
 * their controls (the chat's close and minimise buttons were under it).
 */
const HEIGHT_VARIABLE = '--offline-notice-height';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** Shown over the app shell while the device is offline (the installed app opens offline). */
export function OfflineNotice() {
  const online = useSyncExternalStore(subscribe, () => navigator.onLine);
  const notice = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => {
    const element = notice.current;
    if (!element) return undefined;
    const root = document.documentElement.style;
    const measure = () => root.setProperty(HEIGHT_VARIABLE, `${element.offsetHeight}px`);
    measure();
    // Its text wraps to more lines on a narrow screen, or when the phone turns.
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    resized?.observe(element);
    return () => {
      resized?.disconnect();
      root.removeProperty(HEIGHT_VARIABLE);
    };
  }, [online]);
  if (online) return null;
  return (
    <p ref={notice} role="status" data-testid="offline-notice" className="sticky top-0 z-50 bg-amber-100 px-4 py-2 text-center text-sm text-amber-900">
      {OFFLINE_NOTICE}
    </p>
  );
}
