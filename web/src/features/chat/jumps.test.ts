import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/chat/types';
import { AT_PRESENT, UNREAD_PAGES_MAX, firstUnreadAt, markedParts, newerOf, newestReachingUnread, reachesFirstUnread } from './jumps';
import type { MessagesPage } from './chatApi';

function message(createdAt: number, extra: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id: `m${createdAt}`,
    dest_session_id: 's',
    src_id: 'u',
    local_id: `l${createdAt}`,
    created_at: createdAt,
    type: 1003,
    payload: '',
    payload1: [],
    flags: {},
    data: {},
    ...extra,
  };
}

describe('firstUnreadAt', () => {
  const shown = [1, 2, 3, 4, 5].map((at) => message(at));

  it('is the first of the newest unseen messages', () => {
    expect(firstUnreadAt(shown, 2)).toBe(4);
    expect(firstUnreadAt(shown, 5)).toBe(1);
  });

  it('is the oldest shown when more are unseen than shown', () => {
    expect(firstUnreadAt(shown, 50)).toBe(1);
  });

  it('is none when nothing is unseen or nothing is shown', () => {
    expect(firstUnreadAt(shown, 0)).toBeNull();
    expect(firstUnreadAt([], 3)).toBeNull();
  });

  it('leaves out messages still being sent from here', () => {
    expect(firstUnreadAt([...shown, message(9, { local: 'sending' })], 1)).toBe(5);
  });
});

describe('reachesFirstUnread', () => {
  const shown = [1, 2, 3].map((at) => message(at));

  it('needs as many messages as are unseen, unless no older are left', () => {
    expect(reachesFirstUnread(shown, 3, true)).toBe(true);
    expect(reachesFirstUnread(shown, 4, true)).toBe(false);
    expect(reachesFirstUnread(shown, 4, false)).toBe(true);
  });
});

describe('newerOf', () => {
  const page: MessagesPage = { inbox_messages: [], refs: { users: {} }, has_more: false, next_less_than_timestamp: null };

  it('says whether a page opened at a message reaches the present', () => {
    expect(newerOf({ ...page, has_more_after: true, next_greater_than_timestamp: 7 })).toEqual({ hasMore: true, after: 7, loading: false });
    expect(newerOf({ ...page, has_more_after: false, next_greater_than_timestamp: null })).toEqual(AT_PRESENT);
    expect(newerOf(page)).toEqual(AT_PRESENT);
  });
});

describe('newestReachingUnread', () => {
  /** A chat of `count` messages at 1..count, read by pages of 3 as the server pages it. */
  function chat(count: number) {
    const asked: Array<number | null> = [];
    const fetchPage = (before: number | null): Promise<MessagesPage> => {
      asked.push(before);
      const older = [...Array(count).keys()].map((n) => n + 1).filter((at) => before === null || at < before);
      const shown = older.slice(-3);
      const hasMore = older.length > shown.length;
      return Promise.resolve({
        inbox_messages: shown.map((at) => message(at)),
        refs: { users: { [`u${shown[0]}`]: { _id: `u${shown[0]}`, name: 'x', image: '' } } },
        has_more: hasMore,
        next_less_than_timestamp: hasMore ? (shown[0] ?? null) : null,
      });
    };
    return { asked, fetchPage };
  }

  it('reads the newest page alone when it holds every unseen message', async () => {
    const { asked, fetchPage } = chat(10);
    const page = await newestReachingUnread(fetchPage, 3);
    expect(asked).toEqual([null]);
    expect(page.inbox_messages.map((m) => m.created_at)).toEqual([8, 9, 10]);
    expect(firstUnreadAt(page.inbox_messages, 3)).toBe(8);
  });

  it('reads older pages back to the first unread, as one page', async () => {
    const { asked, fetchPage } = chat(10);
    const page = await newestReachingUnread(fetchPage, 5);
    expect(asked).toEqual([null, 8]);
    expect(page.inbox_messages.map((m) => m.created_at)).toEqual([5, 6, 7, 8, 9, 10]);
    expect(page.has_more).toBe(true);
    expect(page.next_less_than_timestamp).toBe(5);
    expect(Object.keys(page.refs.users).sort()).toEqual(['u5', 'u8']);
    expect(firstUnreadAt(page.inbox_messages, 5)).toBe(6);
  });

  it("stops at the chat's first message, and after a bounded number of pages", async () => {
    const small = chat(4);
    expect((await newestReachingUnread(small.fetchPage, 9)).inbox_messages.map((m) => m.created_at)).toEqual([1, 2, 3, 4]);
    const river = chat(1000);
    const page = await newestReachingUnread(river.fetchPage, 900);
    expect(river.asked).toHaveLength(1 + UNREAD_PAGES_MAX);
    expect(page.inbox_messages).toHaveLength(3 * (1 + UNREAD_PAGES_MAX));
  });
});

describe('markedParts', () => {
  it('marks whole words in any case and accent', () => {
    expect(markedParts('Bike for sale: a BIKE, bikes', ['bike'])).toEqual([
      { text: 'Bike', match: true },
      { text: ' for sale: a ', match: false },
      { text: 'BIKE', match: true },
      { text: ', bikes', match: false },
    ]);
    expect(markedParts('Le Café', ['cafe'])).toEqual([
      { text: 'Le ', match: false },
      { text: 'Café', match: true },
    ]);
  });

  it('marks nothing when no word is there', () => {
    expect(markedParts('nothing here', ['bike'])).toEqual([{ text: 'nothing here', match: false }]);
  });
});
