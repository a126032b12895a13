import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ButtonStyle, ComponentType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import * as adminDemo from '../../commands/admin/demo.js';
import * as adminLicense from '../../commands/admin/license.js';
import * as adminPanel from '../../commands/admin/panel.js';
import * as adminRewards from '../../commands/admin/rewards.js';
import * as adminServers from '../../commands/admin/servers.js';
import * as adminSettings from '../../commands/admin/settings.js';
import * as adminStatus from '../../commands/admin/status.js';
import * as adminVouchers from '../../commands/admin/vouchers.js';
import * as adminStoreWebhook from '../../commands/admin/store-webhook.js';
import * as adminInsights from '../../commands/admin/insights-views.js';
import * as redeemViews from '../../commands/redeem/views.js';
import * as cartViews from '../../commands/cart/views.js';
import * as checkoutViews from '../../commands/checkout/views.js';
import * as checkLinkViews from '../../commands/check-link/views.js';
import * as linksViews from '../../commands/links/views.js';
import * as myLinksViews from '../../commands/my-links/views.js';
import * as searchViews from '../../commands/shop/search-views.js';
import * as shopViews from '../../commands/shop/views.js';
import * as topViews from '../../commands/top/views.js';
import * as dmViews from '../../src/discord/payment-links/dm-views.js';
import * as giftDm from '../../src/discord/payment-links/gift-dm.js';
import * as logViews from '../../src/discord/views/log.js';
import * as quantityPicker from '../../src/discord/views/quantity-picker.js';
import type { View } from '../../src/discord/respond.js';
import { captionFor, polishCaptions } from '../../tools/screens/captions-pl.js';
import { loadDemoOffer, screensFor, type Screen } from '../../tools/screens/catalogue.js';
import { htmlToText, markdown, screenHtml, visibleText } from '../../tools/screens/html.js';
import type { ActionRow } from '../../src/discord/respond.js';
import { demoMarked } from '../../src/discord/views/demo-mark.js';
import { gallery, picture, screen, section, separator } from '../../src/discord/views/display.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';

/** Every module that exports something the bot shows; a view is an export named …View or …Modal (plus the DM and the store error). */
const VIEW_MODULES = [adminInsights, adminDemo, adminLicense, adminPanel, adminRewards, adminServers, adminSettings, adminStatus, adminVouchers, adminStoreWebhook, redeemViews, cartViews, checkoutViews, checkLinkViews, linksViews, myLinksViews, searchViews, shopViews, topViews, dmViews, giftDm, logViews, quantityPicker];
const EXTRA_VIEWS = ['paymentLinkDm', 'storeErrorText', 'demoMarked'];

function exportedViews(): string[] {
  const names = VIEW_MODULES.flatMap((module) => Object.entries(module).filter(([name, value]) => typeof value === 'function' && /(View|Modal)$/.test(name)).map(([name]) => name));
  return [...new Set([...names, ...EXTRA_VIEWS])].sort();
}

interface Drawn {
  type: number;
  label?: string;
  placeholder?: string;
  options?: { label: string; description?: string; default?: boolean }[];
  components?: Drawn[];
  /** A text display's Markdown. */
  content?: string;
  /** A section's thumbnail or button. */
  accessory?: Drawn;
  /** A modal label's input or select. */
  component?: Drawn;
}

/** The type of every component a screen holds, at any depth (rows, containers, a section's accessory, a modal's labels). */
function componentTypes(screen: Screen): number[] {
  const types: number[] = [];
  const visit = (component: Drawn): void => {
    types.push(component.type);
    for (const inner of component.components ?? []) visit(inner);
    if (component.accessory) visit(component.accessory);
    if (component.component) visit(component.component);
  };
  const top = (screen.modal ? screen.modal.components : (screen.message?.components ?? [])) as unknown as Drawn[];
  for (const component of top) visit(component);
  return types.sort((a, b) => a - b);
}

/** The type of every component the picture's HTML draws. */
function drawnTypes(html: string): number[] {
  return [...html.matchAll(/data-component="(\d+)"/g)].map((match) => Number(match[1])).sort((a, b) => a - b);
}

/**
 * Every text a member reads in a screen: content, embeds, text displays (at any depth: in a
 * container, in a section), buttons (in a row or beside a section's text), selects (options when
 * drawn open), or a modal's title and fields.
 */
function textsOf(screen: Screen): string[] {
  if (screen.modal) {
    const inputs = (screen.modal.components as unknown as { components: { label?: string; placeholder?: string }[] }[]).flatMap((row) => row.components);
    return [screen.modal.title, ...inputs.flatMap((input) => [input.label ?? '', input.placeholder ?? ''])];
  }
  const view: View = screen.message ?? {};
  const texts = [view.content ?? ''];
  for (const embed of view.embeds ?? []) {
    texts.push(embed.title ?? '', embed.description ?? '', embed.footer?.text ?? '');
    for (const field of embed.fields ?? []) texts.push(field.name, field.value);
  }
  const visit = (component: Drawn): void => {
    if (component.type === ComponentType.TextDisplay) texts.push(component.content ?? '');
    if (component.type === ComponentType.Button) texts.push(component.label ?? '');
    // A member, role, mentionable or channel select shows its placeholder until something is chosen.
    if ([ComponentType.UserSelect, ComponentType.RoleSelect, ComponentType.MentionableSelect, ComponentType.ChannelSelect].includes(component.type)) texts.push(component.placeholder ?? '');
    if (component.type === ComponentType.StringSelect) {
      // Discord shows a select's placeholder only while no option is chosen.
      const chosen = component.options?.find((option) => option.default);
      texts.push(chosen ? chosen.label : (component.placeholder ?? ''));
      if (screen.openSelect) for (const option of component.options ?? []) texts.push(option.label, option.description ?? '');
    }
    for (const inner of component.components ?? []) visit(inner);
    if (component.accessory) visit(component.accessory);
  };
  for (const component of (view.components ?? []) as unknown as Drawn[]) visit(component);
  return texts.filter((text) => text.trim() !== '' && text !== '\u200b');
}

describe('npm run screens cannot drift from the views', async () => {
  const offer = await loadDemoOffer();
  const screens = { en: await screensFor('en', offer), pl: await screensFor('pl', offer) };

  it('lists every exported view', () => {
    const drawn = new Set(screens.en.map((screen) => screen.view));
    expect(exportedViews().filter((name) => !drawn.has(name))).toEqual([]);
    expect(screens.pl.map((screen) => screen.id)).toEqual(screens.en.map((screen) => screen.id));
  });

  it('captions the Polish gallery in Polish, one caption per screen, as its README shows them', () => {
    const gallery = readFileSync(join(import.meta.dirname, '../../docs/screens/pl/README.md'), 'utf8');
    expect(gallery).toContain('Narysowane przez `npm run screens`');
    for (const screen of screens.pl) {
      const caption = captionFor('pl', screen);
      expect(caption, screen.id).not.toBe(screen.caption);
      expect(gallery).toContain(`### ${caption}\n\n![${caption}](${screen.id}.png)`);
    }
    expect(Object.keys(polishCaptions).sort()).toEqual(screens.pl.map((screen) => screen.id).sort());
    expect(captionFor('pl', { id: 'shop-quantity', caption: '' })).toBe('Wybór ilości i dodanie do koszyka');
  });

  for (const locale of ['en', 'pl'] as const) {
    it(`draws every label, option and text of each view into its HTML (${locale})`, () => {
      for (const screen of screens[locale]) {
        const page = htmlToText(screenHtml(screen));
        const texts = textsOf(screen);
        expect(texts.length, screen.id).toBeGreaterThan(0);
        for (const text of texts) expect(page, `${screen.id}: ${text}`).toContain(visibleText(text, locale));
      }
    });
  }

  for (const locale of ['en', 'pl'] as const) {
    it(`draws every component of each view in its picture: rows, buttons, every kind of select, display parts, modal inputs (${locale})`, () => {
      for (const screen of screens[locale]) expect(drawnTypes(screenHtml(screen)), screen.id).toEqual(componentTypes(screen));
    });
  }

  it('shows the member select on the gift choice screen, above its three buttons', () => {
    for (const [locale, t] of [['en', en], ['pl', pl]] as const) {
      const gift = screens[locale].find((screen) => screen.id === 'checkout-gift')!;
      const html = screenHtml(gift);
      expect(drawnTypes(html)).toContain(ComponentType.UserSelect);
      const page = htmlToText(html);
      expect(page).toContain(t.gift.memberPlaceholder);
      expect(page.indexOf(t.gift.memberPlaceholder)).toBeLessThan(page.indexOf(t.gift.byNick));
    }
  });

  it('draws selects open when asked, with every option', () => {
    const variants = screens.en.find((screen) => screen.id === 'shop-variants-paged')!;
    const page = htmlToText(screenHtml(variants));
    expect(page).toContain('13 000 monet');
    expect(page).toContain('Only you can see this');
  });

  it("draws Discord's own words in Polish around a Polish screen, as a Polish client shows them", () => {
    const polish = htmlToText(screenHtml(screens.pl.find((screen) => screen.id === 'links-user')!));
    expect(polish).toContain('Tylko Ty to widzisz');
    expect(polish).toContain('Dzisiaj o 20:30');
    expect(polish).toContain('2 godziny temu');
    expect(polish).toContain('5 godzin temu');
    expect(polish).toContain('12 maja 2026');
    expect(polish).not.toMatch(/Only you can see this|hours ago|Today at/);
    const english = htmlToText(screenHtml(screens.en.find((screen) => screen.id === 'links-user')!));
    expect(english).toContain('Only you can see this');
    expect(english).toContain('2 hours ago');
  });

  it('draws a role mention as the role, not as its raw form', () => {
    expect(htmlToText(markdown('Rola <@&300000000000000003>'))).toBe('Rola @VIP');
  });
});

describe('the screens renderer draws display components as Discord does', () => {
  const selectRow: ActionRow = {
    type: ComponentType.ActionRow,
    components: [{ type: ComponentType.StringSelect, custom_id: 'pick', placeholder: 'Choose a rank', options: [{ label: 'VIP · 30 days', value: 'a', description: 'from 14.99 zł' }, { label: 'SVIP · forever', value: 'b' }] }],
  };
  const buttonRow: ActionRow = {
    type: ComponentType.ActionRow,
    components: [
      { type: ComponentType.Button, custom_id: 'prev', style: ButtonStyle.Secondary, label: 'Previous' },
      { type: ComponentType.Button, custom_id: 'cart', style: ButtonStyle.Primary, label: 'Open cart' },
    ],
  };
  const view = demoMarked(
    en,
    screen({
      accent: 0x2f9e57,
      title: 'Ranks \\# 1',
      subtitle: 'Survival › Ranks',
      info: 'Added to the cart.',
      body: [
        section(['### VIP', 'A coloured nick, **/kit vip** and `/warp vip`.', '-# from 14.99 zł'], picture('attachment://vip.png', 'VIP')),
        section(['### From the store', 'A picture the store hosts.'], picture('https://cdn.example.com/items/diamond.png', 'Diamond')),
        section(['### Cart', '- 2 × VIP\n- 1 × Coins'], { type: ComponentType.Button, custom_id: 'edit', style: ButtonStyle.Secondary, label: 'Edit line' }),
        separator({ large: true }),
        gallery([picture('attachment://survival.png', 'Survival')!]),
      ],
      controls: [selectRow, buttonRow],
    }),
  );
  const drawn: Screen = { id: 'fixture', view: 'fixture', audience: 'members', caption: 'A display-components fixture', place: 'ephemeral', message: view, openSelect: true };
  const html = screenHtml(drawn);
  const page = htmlToText(html);

  it('shows every text, label and option of the view, the DEMO line first', () => {
    const texts = textsOf(drawn);
    expect(texts).toEqual(expect.arrayContaining([`-# ${en.demo.banner}`, '## Ranks \\# 1', '### VIP', 'Edit line', 'Choose a rank', 'SVIP · forever', 'Previous', 'Open cart']));
    for (const text of texts) expect(page, text).toContain(visibleText(text));
    // The DEMO line above the container, then the notice, then the heading.
    const order = [visibleText(en.demo.banner), 'Added to the cart.', 'Ranks # 1', 'Survival › Ranks'].map((text) => page.indexOf(text));
    expect(order[0]).toBeGreaterThan(page.indexOf('Today at'));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(page).toContain('Ranks # 1');
    expect(page).not.toContain('##');
  });

  it('draws the container with its accent bar, headings, the small line, lists and separators', () => {
    expect(html).toContain('<div data-component="17" class="container" style="border-left:4px solid #2f9e57">');
    expect(html).toContain('<div class="h2">Ranks # 1</div>');
    expect(html).toContain('<div class="h3">VIP</div>');
    expect(html).toContain('<div class="sub">from 14.99 zł</div>');
    expect(html).toContain('<div class="li">2 × VIP</div>');
    expect(html).toContain('<strong>/kit vip</strong>');
    expect(html).toContain('<code>/warp vip</code>');
    expect(html).toContain('<div data-component="14" class="sep line large">');
    expect(html).toMatch(/<div data-component="9" class="section">.*<span data-component="2" class="button secondary">Edit line<\/span>/s);
  });

  it('embeds the demo pictures and fetches nothing: a store picture is a neutral box', () => {
    const vip = readFileSync(join(import.meta.dirname, '..', '..', 'src', 'demo', 'images', 'vip.png')).toString('base64');
    expect(html).toContain(`<img data-component="11" class="thumb" src="data:image/png;base64,${vip}"`);
    expect(html).toMatch(/<div data-component="12" class="gallery n1"><img class="shot" src="data:image\/png;base64,/);
    expect(html).toContain('<div data-component="11" class="thumb nopic">');
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toContain('attachment://');
    expect(html).not.toContain('cdn.example.com');
  });

  it('draws role and channel selects with what is chosen, and a modal with labelled inputs and selects', () => {
    const selects: Screen = {
      ...drawn,
      message: {
        components: [
          { type: ComponentType.ActionRow, components: [{ type: ComponentType.RoleSelect, custom_id: 'r', placeholder: 'Pick a role', default_values: [{ id: '300000000000000003', type: 'role' }] }] },
          { type: ComponentType.ActionRow, components: [{ type: ComponentType.ChannelSelect, custom_id: 'c', placeholder: 'Pick a channel' }] },
        ] as unknown as ActionRow[],
      },
    };
    const selectsHtml = screenHtml(selects);
    expect(drawnTypes(selectsHtml)).toEqual([1, 1, ComponentType.RoleSelect, ComponentType.ChannelSelect].sort((a, b) => a - b));
    expect(htmlToText(selectsHtml)).toContain('@VIP');
    expect(htmlToText(selectsHtml)).toContain('Pick a channel');
    const modal = {
      custom_id: 'm',
      title: 'Reward rule',
      components: [
        { type: 18, label: 'Role to give', description: 'Given when the item is paid', component: { type: ComponentType.RoleSelect, custom_id: 'role', placeholder: 'A role…' } },
        { type: ComponentType.ActionRow, components: [{ type: ComponentType.TextInput, custom_id: 'note', style: 2, label: 'Note', value: 'Thanks!' }] },
      ],
    };
    const modalScreen = { ...drawn, message: undefined, modal } as unknown as Screen;
    const modalHtml = screenHtml(modalScreen);
    expect(drawnTypes(modalHtml)).toEqual(componentTypes(modalScreen));
    expect(htmlToText(modalHtml)).toContain('Role to give Given when the item is paid A role…');
    expect(htmlToText(modalHtml)).toContain('Note * Thanks!'); // a text input is required unless it says otherwise
  });

  it('still draws a classic message (content and embeds), as an old DM keeps it', () => {
    const classic: Screen = { ...drawn, message: { content: 'Hello **Steve**', embeds: [{ title: 'Your link', description: 'Pay within 24 hours', color: 0x5865f2 }], components: [buttonRow] } };
    const classicHtml = screenHtml(classic);
    expect(classicHtml).toContain('<div class="content">Hello <strong>Steve</strong></div>');
    expect(classicHtml).toContain('<div class="embed" style="border-left-color:#5865f2">');
    expect(htmlToText(classicHtml)).toContain('Your link Pay within 24 hours');
    expect(htmlToText(classicHtml)).toContain('Previous Open cart');
  });
});

describe('markdown() as Discord reads it', () => {
  it('headings and the small line only at the start of a line, and not when escaped', () => {
    expect(markdown('# Big\n## Mid\n### Small\n-# grey')).toBe('<div class="h1">Big</div><div class="h2">Mid</div><div class="h3">Small</div><div class="sub">grey</div>');
    expect(markdown('not a # heading')).toBe('not a # heading');
    expect(markdown('\\## literal')).toBe('##' + ' literal');
    expect(markdown('\\-# literal')).toBe('-# literal');
    expect(visibleText('## Title\nline one\nline two')).toBe('Title line one line two');
  });

  it('code is never formatted, and escapes show the character', () => {
    expect(markdown('`**not bold**` **bold**')).toBe('<code>**not bold**</code> <strong>bold</strong>');
    expect(markdown('```\n# not a heading\nline\n```')).toBe('<code class="block"># not a heading<br>line</code>');
    expect(markdown('\\*\\*plain\\*\\* \\<@1\\> \\_x\\_')).toBe('**plain** &#60;@1&#62; _x_');
    expect(markdown('*it* _it_ __under__ ~~gone~~ snake_case_name')).toBe('<em>it</em> <em>it</em> <u>under</u> <s>gone</s> snake_case_name');
  });
});
