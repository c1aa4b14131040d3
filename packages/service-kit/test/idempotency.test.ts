// The Idempotency-Key rule every gateway route and service shares (ADR 0046): which values are keys, and how one
// travels in a call's metadata. The store itself is tested where it is used, on real PostgreSQL (the post service).
import { Metadata, status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { grpcStatusOf } from '../src/grpc/status.ts';
import {
  DomainError,
  IDEMPOTENCY_MESSAGES,
  idempotencyKeyOf,
  parseIdempotencyKey,
  setIdempotencyKey,
} from '../src/index.ts';

describe('parseIdempotencyKey', () => {
  it('takes 8 to 255 visible ASCII characters, bare or as a structured-field string in double quotes', () => {
    expect(parseIdempotencyKey('6f1c3a8e-52d4-4c1b-9a3e-0d2f7b9c4e11')).toBe(
      '6f1c3a8e-52d4-4c1b-9a3e-0d2f7b9c4e11',
    );
    expect(parseIdempotencyKey('"6f1c3a8e-52d4"')).toBe('6f1c3a8e-52d4');
    expect(parseIdempotencyKey('a:b/c+d=e~f_g.h!')).toBe('a:b/c+d=e~f_g.h!');
    expect(parseIdempotencyKey('k'.repeat(255))).toBe('k'.repeat(255));
  });

  it.each([
    ['', 'empty'],
    ['1234567', 'seven characters'],
    ['k'.repeat(256), '256 characters'],
    ['two words', 'a space'],
    ['"unclosed-key', 'an unclosed quote'],
    ['back\\slash-key', 'a backslash'],
    ['clé-numéro-1', 'letters outside ASCII'],
    ['tab\there-key', 'a control character'],
  ])('refuses %j (%s)', (value) => {
    expect(parseIdempotencyKey(value)).toBeUndefined();
  });
});

describe('idempotency-key metadata', () => {
  it('carries the key; none is undefined; a malformed one is refused as an invalid argument', () => {
    const metadata = new Metadata();
    expect(idempotencyKeyOf(metadata)).toBeUndefined();
    setIdempotencyKey(metadata, 'key-of-a-post');
    expect(idempotencyKeyOf(metadata)).toBe('key-of-a-post');
    metadata.set('idempotency-key', 'short');
    const refused = (() => {
      try {
        idempotencyKeyOf(metadata);
      } catch (error) {
        return error;
      }
    })() as DomainError;
    expect(refused).toBeInstanceOf(DomainError);
    expect(grpcStatusOf[refused.kind]).toBe(status.INVALID_ARGUMENT);
    expect(refused.message).toBe(IDEMPOTENCY_MESSAGES.malformed);
  });
});
