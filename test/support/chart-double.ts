import type { ChartRenderer, ChartRequest } from '../../src/services/insights/chart-renderer.js';

/** A valid 1×1 PNG: what the double draws for every chart. */
export const ONE_PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/**
 * A test double for the insights' chart renderer (tests only): remembers what it was asked to draw
 * and answers with one pixel, so the flows see the chart's place on the screen without drawing it.
 */
export class ChartDouble implements ChartRenderer {
  readonly requests: ChartRequest[] = [];
  /** How many times the bot closed it (once per stop). */
  closed = 0;

  async render(request: ChartRequest): Promise<Buffer> {
    this.requests.push(request);
    return ONE_PIXEL_PNG;
  }

  async close(): Promise<void> {
    this.closed += 1;
  }
}
