/**
 * The store panel's purchase webhook (Dodatki → Webhooki → Nowy webhook): on each paid purchase the
 * store posts to the Discord webhook URL the shop owner pasted, an embed with the title, the colour
 * and the message text in which {NICK}, {PRODUCT}, {VARIANT}, {AMOUNT}, {METHOD} and
 * {TRANSACTION_ID} are replaced. Scope: the whole license, or one server. Where the text lands is a
 * choice of the test (`layout`), so a reader that looks only in one place fails.
 */

export interface PurchaseWebhookConfig {
  /** The Discord webhook URL pasted in the panel (against the local Discord: its apiUrl + /webhooks/{id}/{token}). */
  url: string;
  /** The message text with placeholders, as the admin pasted it. */
  template: string;
  title?: string;
  color?: number;
  /** Only purchases on this server are posted (default: the whole license). */
  serverId?: string;
  /** Where the text goes: the embed's description (default), one embed field, or the plain content. */
  layout?: 'description' | 'field' | 'content';
}

export interface PurchaseFacts {
  transactionId: string;
  nick: string;
  product: string;
  variant: string;
  /** In grosze. */
  amountGrosze: number;
  method: string;
  serverIds: string[];
}

/** What the panel fills in: an amount written as Polish shops write it ("10,00 zł"). */
export function renderTemplate(template: string, facts: PurchaseFacts): string {
  const amount = `${(facts.amountGrosze / 100).toFixed(2).replace('.', ',')} zł`;
  return template
    .replaceAll('{NICK}', facts.nick)
    .replaceAll('{PRODUCT}', facts.product)
    .replaceAll('{VARIANT}', facts.variant)
    .replaceAll('{AMOUNT}', amount)
    .replaceAll('{METHOD}', facts.method)
    .replaceAll('{TRANSACTION_ID}', facts.transactionId);
}

export function webhookBody(config: PurchaseWebhookConfig, facts: PurchaseFacts): Record<string, unknown> {
  const text = renderTemplate(config.template, facts);
  const layout = config.layout ?? 'description';
  if (layout === 'content') return { content: text };
  const embed: Record<string, unknown> = { title: config.title ?? 'Nowy zakup', color: config.color ?? 0x2ecc71 };
  if (layout === 'field') embed.fields = [{ name: 'Szczegóły', value: text }];
  else embed.description = text;
  return { embeds: [embed] };
}

/**
 * Posts purchases through the configured webhooks, as the store does after a payment. Each post is
 * an HTTP POST with `?wait=true`; `settled()` resolves once every post so far got its answer (the
 * statuses are kept: 404 after the webhook was deleted, as the real store would meet it).
 */
export class PurchaseWebhookPoster {
  readonly configs: PurchaseWebhookConfig[] = [];
  /** Every post's answer status, in order. */
  readonly statuses: number[] = [];
  private pending: Promise<void>[] = [];

  post(facts: PurchaseFacts): void {
    for (const config of this.configs) {
      if (config.serverId !== undefined && !facts.serverIds.includes(config.serverId)) continue;
      this.pending.push(this.send(config, facts));
    }
  }

  async settled(): Promise<void> {
    while (this.pending.length > 0) {
      const now = this.pending;
      this.pending = [];
      await Promise.all(now);
    }
  }

  private async send(config: PurchaseWebhookConfig, facts: PurchaseFacts): Promise<void> {
    try {
      const response = await fetch(`${config.url}?wait=true`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(webhookBody(config, facts)),
      });
      await response.arrayBuffer();
      this.statuses.push(response.status);
    } catch {
      this.statuses.push(0);
    }
  }
}
