/** An application whose HTTP adapter holds an Express app (a Nest application). */
interface WithExpress {
  getHttpAdapter(): { getInstance(): unknown };
}

/**
 * How many requests reached Express's `app.handle` (its router) while `during` ran: 0 for the
 * requests a direct route answered (libs/http's fast path), 1 for each it left to the router.
 */
export async function routedByExpress(app: WithExpress, during: () => Promise<unknown>): Promise<number> {
  const express = app.getHttpAdapter().getInstance() as { handle: (...args: unknown[]) => unknown };
  const handle = express.handle;
  let count = 0;
  express.handle = function counted(this: unknown, ...args: unknown[]): unknown {
    count++;
    return handle.apply(this, args);
  };
  try {
    await during();
    return count;
  } finally {
    express.handle = handle;
  }
}
