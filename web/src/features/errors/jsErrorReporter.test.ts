import { afterEach, describe, expect, it } from 'vitest';
import { mockFetch } from '../../test/fetchMock';
import { createApiClient } from '../../shared/api';
import { JSERROR_MAX_REPORTS, JSERROR_WINDOW_MS } from './constants';
import { installErrorReporter, reportError } from './jsErrorReporter';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function rejectionEvent(reason: unknown): Event {
  const event = new Event('unhandledrejection');
  Object.assign(event, { reason, promise: Promise.resolve() });
  return event;
}

describe('error reporter', () => {
  let uninstall = () => undefined as void;
  afterEach(() => uninstall());

  it('posts uncaught errors with their stack to /jserror', async () => {
    const calls = mockFetch(() => ({ body: { success: true } }));
    uninstall = installErrorReporter(createApiClient());
    const error = new Error('boom');
    window.dispatchEvent(new ErrorEvent('error', { error, message: 'Uncaught Error: boom', filename: 'app.js', lineno: 3, colno: 7 }));
    await flush();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url.pathname).toBe('/jserror');
    expect(calls[0]?.body).toMatchObject({
      stacktrace_string: error.stack,
      description: 'Uncaught Error: boom',
      error_details: { source: 'app.js', line: 3, column: 7, message: 'boom' },
    });
  });

  it('reports unhandled rejections but not failed API replies', async () => {
    const calls = mockFetch(() => ({ body: { success: true } }));
    uninstall = installErrorReporter(createApiClient());
    window.dispatchEvent(rejectionEvent({ status: 400, errors: 'Bad input' }));
    window.dispatchEvent(rejectionEvent(new TypeError('x is undefined')));
    await flush();
    expect(calls.map((call) => (call.body as { description: string }).description)).toEqual(['Unhandled promise rejection']);
  });

  it(`sends at most ${JSERROR_MAX_REPORTS} reports per window`, async () => {
    const calls = mockFetch(() => ({ body: { success: true } }));
    let now = 0;
    uninstall = installErrorReporter(createApiClient(), () => now);
    for (let i = 0; i < JSERROR_MAX_REPORTS + 3; i += 1) reportError(new Error(`e${i}`), 'loop');
    await flush();
    expect(calls).toHaveLength(JSERROR_MAX_REPORTS);
    now = JSERROR_WINDOW_MS;
    reportError(new Error('later'), 'loop');
    await flush();
    expect(calls).toHaveLength(JSERROR_MAX_REPORTS + 1);
  });

  it('swallows a failed report', async () => {
    mockFetch(() => ({ status: 500, text: '' }));
    uninstall = installErrorReporter(createApiClient());
    const unhandled: unknown[] = [];
    const onRejection = (event: Event) => unhandled.push(event);
    window.addEventListener('unhandledrejection', onRejection);
    reportError(new Error('boom'), 'test');
    await flush();
    window.removeEventListener('unhandledrejection', onRejection);
    expect(unhandled).toEqual([]);
  });
});
