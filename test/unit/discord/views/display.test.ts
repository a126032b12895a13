import { ComponentType, MessageFlags } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { restMessage } from '../../../../src/discord/respond.js';
import { demoMarked } from '../../../../src/discord/views/demo-mark.js';
import { button } from '../../../../src/discord/views/components.js';
import { countComponents, picture, screen, section, textDisplays, textView } from '../../../../src/discord/views/display.js';
import { en } from '../../../../src/i18n/en.js';
import type { IdFor } from '../../../../src/discord/routes.js';

const totalText = (components: readonly unknown[]) => textDisplays(components).reduce((sum, display) => sum + Array.from(display.content).length, 0);

describe('display components (views/display.ts)', () => {
  it('takes only an https picture or one of the demo shop’s own; anything else is no picture', () => {
    expect(picture('https://cdn.example.com/vip.png', 'VIP')).toEqual({ url: 'https://cdn.example.com/vip.png', description: 'VIP' });
    expect(picture('attachment://vip.png')).toEqual({ url: 'attachment://vip.png' });
    for (const bad of ['http://cdn.example.com/vip.png', 'attachment://not-ours.png', 'attachment://../../.env', '/img/vip.png', 'https://cdn.example.com/a b.png', 'javascript:alert(1)', '', null, undefined, `https://x.example/${'a'.repeat(2100)}`]) {
      expect(picture(bad), String(bad)).toBeUndefined();
    }
  });

  it('shows an item without a picture as text, never as a section without its accessory', () => {
    expect(section(['### VIP', 'from 10 zł'])).toEqual({ type: ComponentType.TextDisplay, content: '### VIP\nfrom 10 zł' });
    const pictured = section(['### VIP'], picture('https://cdn.example.com/vip.png', 'VIP'));
    expect(pictured).toMatchObject({ type: ComponentType.Section, accessory: { type: ComponentType.Thumbnail, media: { url: 'https://cdn.example.com/vip.png' } } });
  });

  it('attaches the demo pictures a screen points at, once each', () => {
    const vip = picture('attachment://vip.png', 'VIP')!;
    const view = screen({ accent: 1, title: 'Shop', body: [section(['VIP'], vip), section(['VIP again'], vip)] });
    expect(view.flags).toBe(MessageFlags.IsComponentsV2);
    expect(view.files?.map((file) => file.name)).toEqual(['vip.png']);
    expect(view.files?.[0]?.data.subarray(1, 4).toString()).toBe('PNG');
    const { body, files } = restMessage(view, 'create');
    expect(body.attachments).toEqual([{ id: '0', filename: 'vip.png' }]);
    expect(files?.map((file) => file.name)).toEqual(['vip.png']);
  });

  it('fits the text into Discord’s 4000 characters by shortening the longest part, never the heading', () => {
    const view = screen({ accent: 1, title: 'Shop', body: [section(['x'.repeat(3000)]), section(['y'.repeat(2000)])], warning: 'careful' });
    expect(totalText(view.components!)).toBeLessThanOrEqual(4000);
    expect(textDisplays(view.components!).map((display) => display.content)).toContain('## Shop');
  });

  it('marks a demo screen once, as a line above it, and an old classic message in its text', () => {
    const view = screen({ accent: 1, title: 'Shop' });
    const marked = demoMarked(en, demoMarked(en, view));
    expect(countComponents(marked.components!)).toBe(countComponents(view.components!) + 1);
    expect(textDisplays(marked.components!)[0]?.content).toContain(en.demo.banner);
    expect(demoMarked(en, { content: 'old', embeds: [] }).content).toBe(`${en.demo.banner}\nold`);
  });

  it('clears the legacy fields when it edits (a classic message becomes display components), and leaves a classic view as it is', () => {
    expect(restMessage(textView('hi'), 'edit').body).toMatchObject({ content: null, embeds: [], flags: MessageFlags.IsComponentsV2, allowed_mentions: { parse: [] } });
    expect(restMessage(textView('hi'), 'create').body).not.toHaveProperty('content');
    expect(restMessage({ content: 'old', embeds: [] }, 'edit').body).toEqual({ content: 'old', embeds: [] });
  });

  it('counts components as Discord does: every level, a section’s texts and accessory, a row’s buttons', () => {
    const id = 'x' as IdFor<'button'>;
    const view = screen({ accent: 1, title: 'T', body: [section(['a', 'b'], button(id, 'Go'))], controls: [{ type: ComponentType.ActionRow, components: [button('y' as IdFor<'button'>, 'Back')] }] });
    // container, heading, separator, section + 2 texts + button, separator, row + button
    expect(countComponents(view.components!)).toBe(10);
  });
});

describe('fitting the text', () => {
  it('goes on to the next longest text once the longest is cut down, until the whole fits', () => {
    // Many texts of about the same length: cutting only one of them cannot make the whole fit.
    const view = screen({ accent: 1, title: 'Shop', body: Array.from({ length: 20 }, () => section(['z'.repeat(400)])) });
    expect(totalText(view.components!)).toBeLessThanOrEqual(4000);
  });
});
