import { createServer, type RequestListener, type Server } from 'node:http';

/**
 * The bot's own small HTTP listeners (health and metrics, the demo pay page): a client that sends
 * half a request and then nothing (a stalled scraper, a slow-loris) is cut off after a few seconds,
 * and never holds up shutdown. Node's defaults wait a minute for headers and five for a request,
 * and closing a server waits for every connection that is mid-request.
 */
const HEADERS_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 10_000;
/** How often Node looks for connections past those limits (its default is 30 s). */
const CHECK_INTERVAL_MS = 1_000;
/** On close: requests being answered get this long, then every connection still open is cut. */
const CLOSE_GRACE_MS = 1_000;

export function createListener(handler: RequestListener): Server {
  return createServer(
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: CHECK_INTERVAL_MS },
    handler,
  );
}

/** Stops listening, closes idle connections at once and stuck ones after a moment; resolves when all are closed. */
export function closeListener(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
