// Test helpers for services: a real PostgreSQL per test run and the schema-vs-database check.

export { testCallers } from './callers.ts';
export { createServiceRoles, createTestDatabase, TEST_DATABASE_URL_ENV } from './database.ts';
export { diesBeforeAnswer } from './dies-before-answer.ts';
export { type StoppablePostgres, useStoppablePostgres } from './outage.ts';
export { freePort, listeningPorts } from './ports.ts';
export { diffSchemaAndDatabase } from './schema-check.ts';
