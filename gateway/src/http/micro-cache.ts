// A short-lived in-memory cache for public reads with single flight: a crowd of visitors asking at once
// costs one call to the service, and nobody waits on a stale answer for longer than the TTL.
export interface MicroCache<T> {
  get: (load: () => Promise<T>) => Promise<T>;
}

export function microCache<T>(ttlMs: number, now: () => number = Date.now): MicroCache<T> {
  let value: { data: T; expires: number } | undefined;
  let inFlight: Promise<T> | undefined;
  return {
    get(load) {
      if (value && value.expires > now()) return Promise.resolve(value.data);
      inFlight ??= load().then(
        (data) => {
          value = { data, expires: now() + ttlMs };
          inFlight = undefined;
          return data;
        },
        (error: unknown) => {
          inFlight = undefined;
          throw error;
        },
      );
      return inFlight;
    },
  };
}
