// Options every gRPC server and client of Rotunda's is made with.

/**
 * Channelz keeps statistics and traces of every call for a debugging service Rotunda does not serve; its
 * bookkeeping costs on each call, which the directory's searches make by the thousand a second.
 */
export const GRPC_OPTIONS = { 'grpc.enable_channelz': 0 } as const;
