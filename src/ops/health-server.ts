import type { Server } from 'node:http';
import { closeListener, createListener } from './http-listener.js';

/**
 * The host's view of the bot (Docker HEALTHCHECK, Kubernetes probes, Prometheus): GET
 * /healthz/live, /healthz/ready and /metrics, on 127.0.0.1 unless HEALTH_HOST says otherwise.
 * It reads nothing of a request but its method and path, and answers nothing else (404): no
 * secret, member or URL is ever in what it serves.
 */
export interface HealthSources {
  /** The gateway's state and a storage round trip. */
  readiness(): Promise<{ ready: boolean; gateway: string; storage: 'ok' | 'failing' }>;
  metrics(): Promise<{ contentType: string; body: string }>;
}

export class HealthPortInUseError extends Error {
  constructor(port: number) {
    super(`HEALTH_PORT ${port} is already in use: choose a free port for the health and metrics listener, or unset HEALTH_PORT.`);
    this.name = 'HealthPortInUseError';
  }
}

export async function startHealthServer(host: string, port: number, sources: HealthSources): Promise<{ close(): Promise<void> }> {
  const server: Server = createListener((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    };
    const json = (status: number, body: unknown) => send(status, 'application/json', JSON.stringify(body));
    if (request.method !== 'GET') return json(404, { error: 'not found' });
    if (path === '/healthz/live') return json(200, { live: true });
    if (path === '/healthz/ready') {
      void sources.readiness().then(
        (state) => json(state.ready ? 200 : 503, state),
        () => json(503, { ready: false }),
      );
      return;
    }
    if (path === '/metrics') {
      void sources.metrics().then(
        ({ contentType, body }) => send(200, contentType, body),
        () => json(500, { error: 'metrics unavailable' }),
      );
      return;
    }
    json(404, { error: 'not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? new HealthPortInUseError(port) : error));
    server.listen(port, host, () => resolve());
  });
  return {
    close: () => closeListener(server),
  };
}
