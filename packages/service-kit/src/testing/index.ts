// Test helpers for services: a real PostgreSQL per vitest project, the schema-vs-database check, typed calls to a
// service and a recording fake of one for the tests of its callers.

export { testCallers } from './callers.ts';
export { createServiceRoles, createTestDatabase } from './database.ts';
export { diesBeforeAnswer } from './dies-before-answer.ts';
export { type StoppablePostgres, useStoppablePostgres } from './outage.ts';
export { freePort, listeningPorts } from './ports.ts';
export {
  type FakeAnswer,
  type RecordedCall,
  type RecordingFake,
  type RecordingFakeOptions,
  startRecordingFake,
} from './recording-fake.ts';
export { type Rpc, refusal, rpcCalls, type UnaryMethodOf } from './rpc.ts';
export { diffSchemaAndDatabase } from './schema-check.ts';
