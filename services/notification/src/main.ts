// Composition root of the notification service: rotunda.notification.v1.NotificationService over gRPC, fed by
// the recorded events of the post, profile and auth services.
import { NotificationServiceService } from '@rotunda/protos/notification';
import { runService } from '@rotunda/service-kit';
import { notificationConfigSchema } from './config.ts';
import { wireNotification } from './wiring.ts';

await runService({
  name: 'notification',
  configSchema: notificationConfigSchema,
  migrationsDir: new URL('../prisma/migrations', import.meta.url),
  wire: async ({ config, logger }) => {
    const wired = await wireNotification(config, logger);
    // The watchers' streams last as long as the process: they end before the server drains (registered before
    // the kit's own handlers, so they run first), and the gateway workers reopen them on another replica.
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void wired.endStreams());
    return {
      services: [
        {
          name: 'rotunda.notification.v1.NotificationService',
          definition: NotificationServiceService,
          implementation: wired.implementation,
        },
      ],
      onShutdown: () => wired.close(),
    };
  },
});
