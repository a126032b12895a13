import { describe, expect, it } from 'vitest';
import * as adminDemo from '../../commands/admin/demo.js';
import * as adminLicense from '../../commands/admin/license.js';
import * as adminPanel from '../../commands/admin/panel.js';
import * as adminRewards from '../../commands/admin/rewards.js';
import * as adminServers from '../../commands/admin/servers.js';
import * as adminSettings from '../../commands/admin/settings.js';
import * as adminStatus from '../../commands/admin/status.js';
import * as adminVouchers from '../../commands/admin/vouchers.js';
import * as redeemViews from '../../commands/redeem/views.js';
import * as cartViews from '../../commands/cart/views.js';
import * as checkoutViews from '../../commands/checkout/views.js';
import * as linksViews from '../../commands/links/views.js';
import * as myLinksViews from '../../commands/my-links/views.js';
import * as searchViews from '../../commands/shop/search-views.js';
import * as shopViews from '../../commands/shop/views.js';
import * as topViews from '../../commands/top/views.js';
import * as dmViews from '../../src/discord/payment-links/dm-views.js';
import * as logViews from '../../src/discord/views/log.js';
import * as quantityPicker from '../../src/discord/views/quantity-picker.js';
import type { View } from '../../src/discord/respond.js';
import { loadDemoOffer, screensFor, type Screen } from '../../tools/screens/catalogue.js';
import { htmlToText, screenHtml, visibleText } from '../../tools/screens/html.js';

/** Every module that exports something the bot shows; a view is an export named …View or …Modal (plus the DM and the store error). */
const VIEW_MODULES = [adminDemo, adminLicense, adminPanel, adminRewards, adminServers, adminSettings, adminStatus, adminVouchers, redeemViews, cartViews, checkoutViews, linksViews, myLinksViews, searchViews, shopViews, topViews, dmViews, logViews, quantityPicker];
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
}

/** Every text a member reads in a screen: content, embeds, buttons, selects (options when drawn open), modal. */
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
  for (const component of ((view.components ?? []) as unknown as Drawn[]).flatMap((row) => row.components ?? [])) {
    // Discord shows a select's placeholder only while no option is chosen.
    const chosen = component.options?.find((option) => option.default);
    texts.push(component.label ?? '', chosen ? chosen.label : (component.placeholder ?? ''));
    if (screen.openSelect) for (const option of component.options ?? []) texts.push(option.label, option.description ?? '');
  }
  return texts.filter((text) => text !== '');
}

describe('npm run screens cannot drift from the views', async () => {
  const offer = await loadDemoOffer();
  const screens = { en: await screensFor('en', offer), pl: await screensFor('pl', offer) };

  it('lists every exported view', () => {
    const drawn = new Set(screens.en.map((screen) => screen.view));
    expect(exportedViews().filter((name) => !drawn.has(name))).toEqual([]);
    expect(screens.pl.map((screen) => screen.id)).toEqual(screens.en.map((screen) => screen.id));
  });

  for (const locale of ['en', 'pl'] as const) {
    it(`draws every label, option and text of each view into its HTML (${locale})`, () => {
      for (const screen of screens[locale]) {
        const page = htmlToText(screenHtml(screen));
        const texts = textsOf(screen);
        expect(texts.length, screen.id).toBeGreaterThan(0);
        for (const text of texts) expect(page, `${screen.id}: ${text}`).toContain(visibleText(text));
      }
    });
  }

  it('draws selects open when asked, with every option', () => {
    const variants = screens.en.find((screen) => screen.id === 'shop-variants-paged')!;
    const page = htmlToText(screenHtml(variants));
    expect(page).toContain('13 000 monet');
    expect(page).toContain('Only you can see this');
  });
});
