// Password hashing of the built-in identity provider: argon2id with OWASP's baseline (19 MiB, 2 passes,
// one lane), about 50 ms of CPU per login on a small server; `npm run bench -- auth` measures it.
import argon2 from 'argon2';

export const PASSWORD_HASHING = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const hashPassword = (password: string) => argon2.hash(password, PASSWORD_HASHING);

export const verifyPassword = (hash: string, password: string) => argon2.verify(hash, password);
