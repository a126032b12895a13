import { connect, createServer, type Socket } from 'node:net';

/** A port nothing listens on right now (the system picks it), for a listener the test names. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A client that sends half a request and then nothing (a stalled scraper, a slow-loris): the
 * request line and one header, never the blank line that ends the headers. Resolves once the
 * bytes are sent; the test ends the socket.
 */
export function halfSentRequest(port: number, path = '/'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', reject);
    socket.once('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`, () => resolve(socket)));
    // The server may cut it: that is what a closing listener should do.
    socket.on('close', () => socket.off('error', reject));
    socket.on('error', () => undefined);
  });
}
