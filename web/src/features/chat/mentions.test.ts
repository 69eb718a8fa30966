import { describe, expect, it } from 'vitest';
import { filterByName, insertMention, mentionParts, mentionQueryAt, mentionsMe, mentionsToSend, unreadMentions } from './mentions';

describe('the mention being typed', () => {
  it('is the text after an @ that starts a word, up to the caret', () => {
    expect(mentionQueryAt('hi @ra', 6)).toEqual({ start: 3, query: 'ra' });
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt('@Ravi Ku', 8)).toEqual({ start: 0, query: 'Ravi Ku' });
  });

  it('is none inside an address, past a line break, a space at its end or three words, or with the caret before the @', () => {
    expect(mentionQueryAt('mail me@home', 12)).toBeNull();
    expect(mentionQueryAt('@ra\nnext', 8)).toBeNull();
    expect(mentionQueryAt('@ra ', 4)).toBeNull();
    expect(mentionQueryAt('@a b c d', 8)).toBeNull();
    expect(mentionQueryAt('hi @ra', 2)).toBeNull();
    expect(mentionQueryAt('plain text', 10)).toBeNull();
  });

  it('is none once the name picked is written, and the words after it are the message', () => {
    expect(mentionQueryAt('@Ravi Kumar', 11, ['Ravi Kumar'])).toBeNull();
    expect(mentionQueryAt('@Ravi Kumar are', 15, ['Ravi Kumar'])).toBeNull();
    expect(mentionQueryAt('@Ravi K', 7, ['Ravi Kumar'])).toEqual({ start: 0, query: 'Ravi K' });
  });
});

describe('the picker', () => {
  const people = [{ name: 'Ravi Kumar' }, { name: 'Rania' }, { name: 'Kira' }, { name: 'Bob' }];

  it('offers names holding the text, those starting with it (or a word of theirs) first', () => {
    expect(filterByName(people, 'ra', 10).map((p) => p.name)).toEqual(['Rania', 'Ravi Kumar', 'Kira']);
    expect(filterByName(people, 'KUM', 10).map((p) => p.name)).toEqual(['Ravi Kumar']);
    expect(filterByName(people, '', 2).map((p) => p.name)).toEqual(['Bob', 'Kira']);
    expect(filterByName(people, 'zed', 10)).toEqual([]);
  });

  it('writes the name picked in place of what was typed, the caret after it', () => {
    expect(insertMention('hi @ra how', { start: 3, query: 'ra' }, 6, 'Ravi Kumar')).toEqual({ text: 'hi @Ravi Kumar how', caret: 15 });
    expect(insertMention('@', { start: 0, query: '' }, 1, 'Bob')).toEqual({ text: '@Bob ', caret: 5 });
  });
});

describe('what a message sends and shows', () => {
  const picked = new Map([
    ['Ravi Kumar', 'u-ravi'],
    ['Bob', 'u-bob'],
  ]);

  it('sends the people whose @Name is still written, and everyone only for those who may', () => {
    expect(mentionsToSend('hi @Ravi Kumar', picked, false)).toEqual(['u-ravi']);
    expect(mentionsToSend('@all hi @Bob', picked, true)).toEqual(['all', 'u-bob']);
    expect(mentionsToSend('@all hi @here', picked, false)).toEqual([]);
    expect(mentionsToSend('mail@all.com', picked, true)).toEqual([]);
  });

  it('tells a mention of the viewer, never in their own message', () => {
    expect(mentionsMe({ src_id: 'a', data: { mentions: ['me'] } }, 'me')).toBe(true);
    expect(mentionsMe({ src_id: 'a', data: { mentions: ['here'] } }, 'me')).toBe(true);
    expect(mentionsMe({ src_id: 'a', data: { mentions: ['b'] } }, 'me')).toBe(false);
    expect(mentionsMe({ src_id: 'me', data: { mentions: ['all'] } }, 'me')).toBe(false);
    expect(mentionsMe({ src_id: 'a', data: {} }, 'me')).toBe(false);
  });

  it('cuts the text at its mentions, the longest name first, the viewer marked apart', () => {
    const names = { 'u-ravi': 'Ravi Kumar', 'u-rav': 'Ravi', me: 'Ann' };
    expect(mentionParts('@Ravi Kumar and @Ann, @all', ['u-ravi', 'u-rav', 'me', 'all'], names, 'me')).toEqual([
      { text: '@Ravi Kumar', mention: 'other' },
      { text: ' and ' },
      { text: '@Ann', mention: 'me' },
      { text: ', ' },
      { text: '@all', mention: 'me' },
    ]);
    expect(mentionParts('no names yet @Bob', ['u-bob'], {}, 'me')).toEqual([{ text: 'no names yet @Bob' }]);
  });

  it('goes to the newest mentions the count names, oldest first', () => {
    const messages = [
      { src_id: 'a', created_at: 1, data: { mentions: ['me'] } },
      { src_id: 'a', created_at: 2, data: {} },
      { src_id: 'a', created_at: 3, data: { mentions: ['all'] } },
      { src_id: 'a', created_at: 4, data: { mentions: ['me'] } },
    ];
    expect(unreadMentions(messages, 'me', 2)).toEqual([3, 4]);
    expect(unreadMentions(messages, 'me', 0)).toEqual([]);
  });
});
