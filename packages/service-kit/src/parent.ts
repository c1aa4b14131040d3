// A process `npm start` spawned stops when the apphost goes, however it went. The apphost gives each process an
// IPC channel; the channel closes when the apphost exits, even when it was killed outright and could not stop its
// children, so they stop too instead of running on as orphans that hold their ports.
export function stopWithParent(stop: () => void): void {
  // Run without the apphost (an orchestrator, a developer): no channel, nothing to watch.
  if (!process.channel) return;
  // The channel alone must not keep a stopping process alive.
  process.channel.unref();
  process.once('disconnect', stop);
}
