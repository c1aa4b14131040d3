// Moderation rules (ADR 0041): the suspended member's message dates the end in California, and the reasons,
// decisions and bounds docs/product.md#moderation fixes.
import { describe, expect, it } from 'vitest';
import {
  MODERATION_ACTIONS,
  REPORT_NOTE_MAX,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  SUSPENSION_DAYS,
  suspendedMessage,
} from '../src/index.ts';

describe('moderation rules', () => {
  it('tells a suspended member the day their suspension ends, in California, and why', () => {
    expect(suspendedMessage(new Date('2026-12-09T20:00:00Z'), 'Repeated spam')).toBe(
      'Your account is suspended until December 9, 2026: Repeated spam',
    );
    // 03:00 UTC on the 10th is still the evening of the 9th in Sacramento.
    expect(suspendedMessage(new Date('2026-12-10T03:00:00Z'), 'Harassment')).toBe(
      'Your account is suspended until December 9, 2026: Harassment',
    );
  });

  it('offers the reasons, decisions and bounds the community contract fixes, each reason labelled', () => {
    expect(REPORT_REASONS).toEqual(['spam', 'harassment', 'misinformation', 'personal_information', 'other']);
    expect(REPORT_REASONS.map((reason) => REPORT_REASON_LABELS[reason])).toEqual([
      'Spam',
      'Harassment',
      'Misinformation',
      'Personal information',
      'Other',
    ]);
    expect(MODERATION_ACTIONS).toEqual(['dismiss', 'hide', 'restore', 'remove']);
    expect(REPORT_NOTE_MAX).toBe(500);
    expect(SUSPENSION_DAYS).toEqual({ min: 1, max: 365 });
  });
});
