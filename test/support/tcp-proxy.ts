import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of a real server (Redis), that a test can cut and restore: the bot's
 * connections drop and new ones are refused, as when Redis restarts or the network fails.
 */
export class TcpProxy {
  #cut = false;
  readonly #sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    let proxy: TcpProxy | undefined;
    const server = createServer((client) => {
      if (!proxy || proxy.#cut) {
        client.destroy();
        return;
      }
      const upstream = connect(target.port, target.host);
      const sockets = proxy.#sockets;
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new TcpProxy(server, (server.address() as AddressInfo).port);
    return proxy;
  }

  /** Drops every connection through the proxy and refuses new ones until `restore()`. */
  cut(): void {
    this.#cut = true;
    for (const socket of this.#sockets) socket.destroy();
  }

  restore(): void {
    this.#cut = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
