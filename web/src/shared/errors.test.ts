import { describe, expect, it } from 'vitest';
import { ERROR_POPUP_TITLE } from './constants';
import { describeError, formatErrors, splitFieldErrors } from './errors';

describe('formatErrors', () => {
  it('shows a string as is', () => {
    expect(formatErrors('Group not found')).toEqual(['Group not found']);
  });

  it('shows one line per array entry', () => {
    expect(formatErrors(['Title is required', 'Too many files'])).toEqual(['Title is required', 'Too many files']);
  });

  it('shows key: value for each field of an object', () => {
    expect(formatErrors({ otp: 'Wrong code, 4 tries left', email_id: 'Enter a valid e-mail address' })).toEqual([
      'otp: Wrong code, 4 tries left',
      'email_id: Enter a valid e-mail address',
    ]);
  });

  it('joins a list of messages under one field', () => {
    expect(formatErrors({ files: ['too large', 'wrong type'] })).toEqual(['files: too large, wrong type']);
  });

  it('has no lines for an empty value', () => {
    expect(formatErrors(null)).toEqual([]);
    expect(formatErrors('')).toEqual([]);
  });
});

describe('describeError', () => {
  it('uses the errors of an API failure', () => {
    expect(describeError({ status: 400, errors: { name: 'Too long' } })).toEqual(['name: Too long']);
  });

  it('falls back to the status when an API failure has no message', () => {
    expect(describeError({ status: 502, errors: null })).toEqual(['Request failed with status 502']);
  });

  it('uses the message of a thrown Error', () => {
    expect(describeError(new Error('boom'))).toEqual(['boom']);
  });

  it('falls back to the popup title for nothing at all', () => {
    expect(describeError(undefined)).toEqual([ERROR_POPUP_TITLE]);
  });
});

describe('splitFieldErrors', () => {
  const fieldFor = { email_id: 'contact', otp: 'otp' };

  it('routes known keys to their fields and keeps the rest for the popup', () => {
    expect(splitFieldErrors({ otp: 'Wrong code', account: 'Locked' }, fieldFor)).toEqual({
      fields: { otp: 'Wrong code' },
      rest: { account: 'Locked' },
    });
  });

  it('leaves nothing for the popup when every key has a field', () => {
    expect(splitFieldErrors({ email_id: 'Enter a valid e-mail address' }, fieldFor)).toEqual({
      fields: { contact: 'Enter a valid e-mail address' },
      rest: null,
    });
  });

  it('sends strings and lists to the popup whole', () => {
    expect(splitFieldErrors('Too many attempts', fieldFor)).toEqual({ fields: {}, rest: 'Too many attempts' });
    expect(splitFieldErrors(['a', 'b'], fieldFor)).toEqual({ fields: {}, rest: ['a', 'b'] });
  });
});
