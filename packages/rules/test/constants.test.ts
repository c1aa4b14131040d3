// Image limits, captcha messages and Elected Officials titles (docs/product.md#5-validation-rules,
// #9-business-constants-and-limits).
import { describe, expect, it } from 'vitest';
import {
  CAPTCHA_MESSAGES,
  ELECTED_OFFICIAL_TITLES,
  fitImageSize,
  hasAllowedImageExtension,
  hasCalAccessId,
  IMAGE_LIMITS,
  IMAGE_MESSAGES,
  isElectedOfficialTitle,
} from '../src/index.ts';

describe('image rules', () => {
  it('holds the spec limits and messages', () => {
    expect(IMAGE_LIMITS.allowedExtensions).toEqual(['jpg', 'jpeg', 'png']);
    expect(IMAGE_LIMITS.maxWidth).toBe(450);
    expect(IMAGE_LIMITS.maxHeight).toBe(600);
    expect(IMAGE_LIMITS.quality).toBe(0.8);
    expect(IMAGE_LIMITS.maxBytes).toBe(5242880);
    expect(IMAGE_MESSAGES.incorrectFormat).toBe('Incorrect image format. Please select only .jpg or .jpeg.');
    expect(IMAGE_MESSAGES.tooLarge).toBe('Image is too large. Please resize or select a smaller image.');
  });

  it('accepts jpg, jpeg and png names in any case, nothing else', () => {
    expect(['me.jpg', 'me.JPEG', 'logo.Png', 'a.b.jpg'].map(hasAllowedImageExtension)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['me.gif', 'me.webp', 'jpg', 'me.jpg.exe', 'me.'].map(hasAllowedImageExtension)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('fits within 450x600 keeping the aspect ratio, never enlarging', () => {
    expect(fitImageSize(900, 1200)).toEqual({ width: 450, height: 600 });
    expect(fitImageSize(1000, 500)).toEqual({ width: 450, height: 225 });
    expect(fitImageSize(300, 1200)).toEqual({ width: 150, height: 600 });
    expect(fitImageSize(200, 100)).toEqual({ width: 200, height: 100 });
    expect(fitImageSize(450, 600)).toEqual({ width: 450, height: 600 });
  });
});

describe('captcha messages', () => {
  it('uses the spec texts', () => {
    expect(CAPTCHA_MESSAGES.missing).toBe('Please verify the reCAPTCHA!');
    expect(CAPTCHA_MESSAGES.failed).toBe('reCAPTCHA validation failed!');
  });
});

describe('Elected Officials titles', () => {
  it('lists the ten spec titles in order', () => {
    expect(ELECTED_OFFICIAL_TITLES).toEqual([
      'Senator',
      'President pro Tempore',
      'Assemblymember',
      'Speaker',
      'Governor',
      'Lt. Governor',
      'Lieutenant Governor',
      'State Treasurer',
      'Insurance Commissioner',
      'State Controller',
    ]);
  });

  it('matches whole titles ignoring case and surrounding spaces', () => {
    expect(isElectedOfficialTitle('Senator')).toBe(true);
    expect(isElectedOfficialTitle(' lt. governor ')).toBe(true);
    expect(isElectedOfficialTitle('president PRO tempore')).toBe(true);
    expect(isElectedOfficialTitle("Senator's Chief of Staff")).toBe(false);
    expect(isElectedOfficialTitle('Speaker of the Assembly')).toBe(false);
    expect(isElectedOfficialTitle('')).toBe(false);
  });
});

describe('Cal-Access ID', () => {
  it('applies to Lobbyists, Associations and Unions only', () => {
    expect(['Lobbyists', 'Associations', 'Unions'].every(hasCalAccessId)).toBe(true);
    expect(
      ['Agencies', "Governor's Office", 'Legislature', 'Campaigns', 'Other', 'lobbyists'].some(
        hasCalAccessId,
      ),
    ).toBe(false);
  });
});
