// A recording fake of one gRPC service, for the tests of its callers: a real gRPC server on a free port that
// verifies callers as the services do, records every call (method, request, the caller from the metadata) and
// answers it with the test's answer for that method if it set one, else the fake's default; `reset` forgets both.
import type { ServiceDefinition, UntypedHandleCall } from '@grpc/grpc-js';
import type { Caller } from '../caller.ts';
import { type RunningGrpcServer, startGrpcServer } from '../grpc/server.ts';
import { type CallContext, serverStream, unary } from '../grpc/unary.ts';
import { createLogger } from '../logger.ts';
import { testCallers } from './callers.ts';

/** One method's answer; throwing a DomainError refuses the call as the real service would. */
export type FakeAnswer = (request: Record<string, unknown>, context: CallContext) => Promise<object>;

export interface RecordedCall {
  method: string;
  request: Record<string, unknown>;
  caller: Caller | undefined;
  /**
   * The request id the call carried. Not enumerable, so a test compares a call by what was asked and by whom
   * (`toEqual({ method, request, caller })`) and reads the id only when the id is its point.
   */
  readonly requestId: string;
}

export interface RecordingFake {
  server: RunningGrpcServer;
  address: string;
  /** Every call, oldest first, but those of the `unrecorded` methods. */
  calls: RecordedCall[];
  /** Replaces one method's answer until `reset`. */
  answer: (method: string, answer: FakeAnswer) => void;
  callsTo: (method: string) => RecordedCall[];
  /** Forgets the calls and the answers set with `answer`. */
  reset: () => void;
}

export interface RecordingFakeOptions {
  definition: ServiceDefinition;
  /** What each method answers unless a test set another; a method without one fails its calls. */
  defaults: Record<string, FakeAnswer>;
  /** Methods answered but not recorded: the callers' background polls, which would crowd `calls`. */
  unrecorded?: readonly string[];
  /** Methods served by these handlers as they are, neither recorded nor answerable (a long-lived watch). */
  handlers?: Record<string, UntypedHandleCall>;
  /** A server-streaming method's answer as the messages it streams. */
  streamed?: (answer: object) => Iterable<object>;
}

const logger = createLogger('fake', 'silent');

export async function startRecordingFake(options: RecordingFakeOptions): Promise<RecordingFake> {
  const { definition, defaults, unrecorded = [], handlers = {}, streamed } = options;
  const calls: RecordedCall[] = [];
  let answers: Record<string, FakeAnswer> = {};
  const answerTo = (method: string, request: Record<string, unknown>, context: CallContext) => {
    if (!unrecorded.includes(method)) {
      const call = { method, request, caller: context.caller };
      calls.push(Object.defineProperty(call, 'requestId', { value: context.requestId }) as RecordedCall);
    }
    const answer = answers[method] ?? defaults[method];
    if (!answer) throw new Error(`no answer for ${method}`);
    return answer(request, context);
  };
  const implementation = Object.fromEntries(
    Object.entries(definition).map(([method, { responseStream }]) => [
      method,
      handlers[method] ??
        (responseStream
          ? serverStream(logger, method, async function* (request: Record<string, unknown>, context) {
              const answer = await answerTo(method, request, context);
              if (!streamed) throw new Error(`no way to stream the answer of ${method}`);
              yield* streamed(answer);
            })
          : unary(logger, method, (request: Record<string, unknown>, context) =>
              answerTo(method, request, context),
            )),
    ]),
  );
  // A method's path is /<package>.<Service>/<Method>: the service's name, as health checks ask for it.
  const name = Object.values(definition)[0]?.path.split('/')[1] ?? '';
  const server = await startGrpcServer({
    callers: testCallers.verifier,
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [{ name, definition, implementation }],
  });
  return {
    server,
    address: `127.0.0.1:${server.port}`,
    calls,
    answer: (method, answer) => {
      answers[method] = answer;
    },
    callsTo: (method) => calls.filter((call) => call.method === method),
    reset: () => {
      answers = {};
      calls.length = 0;
    },
  };
}
