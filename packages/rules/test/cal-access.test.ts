// The Cal-Access ID: carried by Lobbyists, Associations and Unions only, a filer number of digits, and the
// messages the gateway, the org service and the edit form share.
import { describe, expect, it } from 'vitest';
import { CAL_ACCESS_MESSAGES, hasCalAccessId, isCalAccessId } from '../src/index.ts';

describe('Cal-Access ID', () => {
  it('applies to lobbying firms, associations and unions only', () => {
    expect(['Lobbyists', 'Associations', 'Unions'].map(hasCalAccessId)).toEqual([true, true, true]);
    expect(['Agencies', 'Other', 'Campaigns', 'lobbyists'].map(hasCalAccessId)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('is a filer number: one to nine digits, outer spaces ignored', () => {
    for (const id of ['1', '9100120', ' 1234567 ', '123456789']) expect(isCalAccessId(id), id).toBe(true);
    for (const id of ['', 'abc', '12a4', '1e+308', '-1', '1.5', '1234567890', '12 34', '０１２'])
      expect(isCalAccessId(id), id).toBe(false);
  });

  it('says who may set it and what it looks like', () => {
    expect(CAL_ACCESS_MESSAGES.contributorsOnly).toBe(
      'Only contributors can set or correct a Cal-Access ID.',
    );
    expect(CAL_ACCESS_MESSAGES.shape).toContain('digits only');
  });
});
