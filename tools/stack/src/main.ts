// npm run stack -- up|down|status|images: the production stack on this machine (stack.ts).
import { compose, down, images, status, up, writeEnv } from './stack.ts';

const commands: Record<string, () => Promise<void>> = {
  up,
  down,
  status,
  images: async () => {
    writeEnv();
    const { binary, args } = await compose();
    await images(binary, args);
  },
};

const command = commands[process.argv[2] ?? ''];
if (!command) {
  console.error('usage: npm run stack -- up|down|status|images');
  process.exit(2);
}
try {
  await command();
} catch (error) {
  console.error(`stack: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
