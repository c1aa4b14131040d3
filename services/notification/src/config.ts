// The notification service's configuration, validated at start-up: the service defaults, where the auth and
// profile services answer (members' emails and issue areas), the mail server and sender (the names the auth
// service uses), and the app's public address the mails link to.
import { envAddress, envPositiveInt, serviceConfigSchema } from '@rotunda/service-kit';
import { z } from 'zod';

export const notificationConfigSchema = serviceConfigSchema('notification', 50056).extend({
  AUTH_SERVICE_ADDR: envAddress('127.0.0.1:50051'),
  PROFILE_SERVICE_ADDR: envAddress('127.0.0.1:50052'),
  /** Deadline of one call to the auth or profile service. */
  GRPC_DEADLINE_MS: envPositiveInt(3000),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/\S+$/, 'must be an smtp:// URL')
    .default('smtp://127.0.0.1:1025'),
  MAIL_FROM: z.string().default('Rotunda <no-reply@rotunda.example>'),
  /** The app's address as members reach it: mails link to it, and to its one-click unsubscribe. */
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .default('http://localhost:8080')
    .transform((url) => url.replace(/\/+$/, '')),
  /** How often the outbox of a producer is looked at when no wake-up was heard. */
  EVENTS_POLL_MS: envPositiveInt(5000),
});

export type NotificationConfig = z.infer<typeof notificationConfigSchema>;
