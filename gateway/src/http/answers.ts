// Shaping service answers into the spec's JSON: what gRPC leaves out is null, and instants are ISO text.

export const orNull = <T>(value: T | undefined): T | null => value ?? null;

export const instant = (value: Date | undefined): string | null => value?.toISOString() ?? null;
