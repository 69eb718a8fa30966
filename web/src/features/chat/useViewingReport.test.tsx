import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useViewingReport } from './useViewingReport';
import { serve } from '../../test/standIns';

const emitted: unknown[] = [];
const handlers = new Map<string, () => void>();
const fakeSocket = {
  emit: (event: string, data: unknown) => emitted.push([event, data]),
  on: (event: string, handler: () => void) => handlers.set(event, handler),
  off: (event: string) => handlers.delete(event),
};
serve({ socket: fakeSocket });

let visibility: DocumentVisibilityState = 'visible';
Object.defineProperty(document, 'visibilityState', { get: () => visibility });

const flush = () => act(() => Promise.resolve());

describe('reporting the chat a tab shows', () => {
  afterEach(() => {
    emitted.length = 0;
    visibility = 'visible';
  });

  it('reports the open chat, none while hidden, it again when shown, and none when closed', async () => {
    const { rerender, unmount } = renderHook(({ id }) => useViewingReport(id), { initialProps: { id: 's1' as string | null } });
    await flush();
    visibility = 'hidden';
    document.dispatchEvent(new Event('visibilitychange'));
    await flush();
    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    await flush();
    // A reconnected socket is told again: the server forgot it.
    handlers.get('connect')?.();
    await flush();
    rerender({ id: null });
    await flush();
    unmount();
    await flush();
    expect(emitted).toEqual([
      ['viewing', { session_id: 's1' }],
      ['viewing', { session_id: null }],
      ['viewing', { session_id: 's1' }],
      ['viewing', { session_id: 's1' }],
      ['viewing', { session_id: null }],
      ['viewing', { session_id: null }],
      ['viewing', { session_id: null }],
    ]);
  });
});
