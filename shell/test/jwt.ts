// Test helper: unsigned JWT-shaped tokens with chosen claims (the shell only reads `exp`).
export function fakeJwt(claims: Record<string, unknown>): string {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.signature`;
}

/** Seconds since the epoch, `offset` seconds from now. */
export function inSeconds(offset: number): number {
  return Math.floor(Date.now() / 1000) + offset;
}
