// Composition root of the post service: its own schema and the gRPC server with health checking.
// Its RPCs are wired here as the capability lands.
import { PostServiceService } from '@rotunda/protos/post';
import { runService, serviceConfigSchema } from '@rotunda/service-kit';

await runService({
  name: 'post',
  configSchema: serviceConfigSchema('post', 50054),
  migrationsDir: new URL('../prisma/migrations', import.meta.url),
  wire: () => ({
    services: [{ name: 'rotunda.post.v1.PostService', definition: PostServiceService, implementation: {} }],
  }),
});
