import { ComponentType, PermissionFlagsBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import { DEFAULT_MEMBER_PERMISSIONS, type FakeMessage } from '../fakes/discord/fake-discord.js';
import { forEachComponent } from '../fakes/discord/validation.js';
import { Member } from '../support/buyer.js';
import { ChartDouble } from '../support/chart-double.js';
import { useHarness, type Harness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { picturesOf, textOf } from '../support/ui.js';

/**
 * /shop-admin insights: members browse, add, check out and pay, and search for something the shop
 * lacks; the admin then sees exactly those steps, the paid sum and the search, and nothing that
 * names a member. Counts are gathered in memory and written in batches; the report writes this
 * process's batch first.
 */

const ADMIN = DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild;
const MISSING = 'xyzzy';

/** Every gallery item's alt text in a message. */
function altTexts(message: FakeMessage): string[] {
  const found: string[] = [];
  forEachComponent(message.components, (component) => {
    const { items } = component as { items?: { description?: string }[] };
    if (component.type === ComponentType.MediaGallery) found.push(...(items ?? []).map((item) => item.description ?? ''));
  });
  return found;
}

/** Three members: one pays, one takes a link and leaves it, one only looks; each searches for what the shop lacks. */
async function shopping(h: Harness): Promise<Member[]> {
  const s = linkSteps(h);
  const steve = new Member(h, { username: 'SteveTheBuyer' });
  const alex = new Member(h, { username: 'AlexTheLooker' });
  const kim = new Member(h, { username: 'KimTheBrowser' });
  const paid = await s.checkout(steve, 'Steve_123');
  await s.tick();
  h.store.pay(paid.url);
  h.clock.advance(4 * 60_000);
  await s.poll();
  await s.checkout(alex, 'Alex_456');
  await kim.run('shop');
  for (const member of [steve, alex, kim]) await member.run('shop', { item: MISSING });
  return [steve, alex, kim];
}

function expectNobodyNamed(text: string, members: Member[]): void {
  for (const member of members) {
    expect(text).not.toContain(member.user.id);
    expect(text).not.toContain(member.user.username);
  }
  for (const nick of ['Steve_123', 'Alex_456']) expect(text).not.toContain(nick);
}

describe('the shop owner’s insights', () => {
  const chart = new ChartDouble();
  const h = useHarness({ chartRenderer: chart });
  let members: Member[];
  beforeAll(async () => {
    members = await shopping(h);
  });

  it('show exactly what members did: each step’s members, the paid sum, the source, the search that found nothing', async () => {
    const admin = new Member(h, { permissions: ADMIN });
    const { message } = await admin.sub('shop-admin', 'insights');
    const text = textOf(message!);
    const i = en.insights;
    expect(text).toContain(i.headline('PLN 14.99', 1, 'PLN 14.99'));
    expect(text).toContain(i.funnelLine(i.steps.open, 3, undefined));
    expect(text).toContain(i.funnelLine(i.steps.view, 2, '67%'));
    expect(text).toContain(i.funnelLine(i.steps.cart, 2, '100%'));
    expect(text).toContain(i.funnelLine(i.steps.link, 2, '100%'));
    expect(text).toContain(i.funnelLine(i.steps.paid, 1, '50%'));
    expect(text).toContain(i.productLine(1, 'VIP', 'PLN 14.99', 1, undefined));
    expect(text).toContain(i.sourceLine(i.sources.shop, 1, 'PLN 14.99'));
    expect(text).toContain(i.times('10 min', '10 min'));
    expect(text).toContain(i.unpaid('50%', 2));
    expect(text).toContain(i.wordLine(MISSING, 3));
    expect(text).toContain(i.throughBot);
    // The chart: drawn once, from the period's days, shown in a gallery whose alt text carries the key numbers.
    expect(picturesOf(message!)).toEqual(['attachment://insights.png']);
    expect(altTexts(message!)).toEqual([i.chartAlt(i.periods['30d'], 'PLN 14.99', 1, 2)]);
    expect(chart.requests).toHaveLength(1);
    expect(chart.requests[0]!.days).toHaveLength(30);
    expect(chart.requests[0]!.days.reduce((sum, day) => sum + day.paidGrosze, 0)).toBe(1499);
    // The chart's own words come from the admin's language catalogue.
    expect(chart.requests[0]!.words).toBe(en.insights.chartWords);
    expectNobodyNamed(JSON.stringify(message!.components), members);
  });

  it('are refused to a member without Manage Server', async () => {
    const member = new Member(h);
    const { message } = await member.sub('shop-admin', 'insights');
    expect(textOf(message!)).not.toContain(en.insights.title);
  });

  it('send the period as a CSV a spreadsheet opens as a table: Polish with semicolons, decimal commas and a byte-order mark', async () => {
    const admin = new Member(h, { permissions: ADMIN, locale: 'pl' });
    const screen = await admin.sub('shop-admin', 'insights', { period: '7d' });
    expect(textOf(screen.message!)).toContain(pl.insights.periods['7d']);
    expect(chart.requests.at(-1)!.words).toBe(pl.insights.chartWords);
    const sent = await admin.press(pl.insights.csvButton);
    const file = sent.followUps[0]!.attachments![0]!;
    expect(sent.followUps[0]!.text).toContain(pl.insights.csvSent(pl.insights.periods['7d']));
    const bytes = h.discord.attachmentData(file.id)!;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = bytes.subarray(3).toString('utf8').trim().split('\r\n');
    expect(rows[0]).toBe(pl.insights.csvHeader.join(';'));
    expect(rows).toHaveLength(1 + 7 + 1);
    const today = new Date(h.clock.now()).toISOString().slice(0, 10);
    expect(rows).toContain(`${today};;${pl.insights.csvAllProducts};1;14,99;2`);
    expect(rows).toContain(`${today};Survival;VIP;1;14,99;`);
    expectNobodyNamed(bytes.toString('utf8'), members);

    const english = new Member(h, { permissions: ADMIN });
    await english.sub('shop-admin', 'insights', { period: '7d' });
    const englishFile = (await english.press(en.insights.csvButton)).followUps[0]!.attachments![0]!;
    const englishRows = h.discord.attachmentData(englishFile.id)!.toString('utf8').trim().split('\r\n');
    expect(englishRows[0]).toBe(en.insights.csvHeader.join(','));
    expect(englishRows).toContain(`${today},Survival,VIP,1,14.99,`);
  });

  it('keep the counts across a restart, and the stopped bot closes its chart renderer', async () => {
    expect(chart.closed).toBe(0);
    await h.restart();
    expect(chart.closed).toBe(1);
    const admin = new Member(h, { permissions: ADMIN });
    const text = textOf((await admin.sub('shop-admin', 'insights')).message!);
    expect(text).toContain(en.insights.funnelLine(en.insights.steps.open, 3, undefined));
    expect(text).toContain(en.insights.headline('PLN 14.99', 1, 'PLN 14.99'));
  });
});

describe('the insights’ chart drawn by the bot’s own renderer', () => {
  const h = useHarness();

  it('is a real PNG in the overview’s media gallery', async () => {
    const s = linkSteps(h);
    const steve = new Member(h);
    const paid = await s.checkout(steve, 'Steve_123');
    h.store.pay(paid.url);
    await s.poll();
    const admin = new Member(h, { permissions: ADMIN });
    const { message } = await admin.sub('shop-admin', 'insights', { period: '7d' });
    expect(picturesOf(message!)).toEqual(['attachment://insights.png']);
    const file = message!.attachments!.find((attachment) => attachment.filename === 'insights.png')!;
    const png = h.discord.attachmentData(file.id)!;
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // 800 × 400 px, as the chart module draws it (the IHDR's width and height).
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([800, 400]);
    expect(textOf(message!)).not.toContain(en.insights.chartUnavailable);
  });
});

describe('the insights with counting turned off by the operator (INSIGHTS=off)', () => {
  const h = useHarness({ chartRenderer: new ChartDouble(), env: { INSIGHTS: 'off' } });

  it('count nothing, and say the operator turned counting off', async () => {
    await shopping(h);
    const admin = new Member(h, { permissions: ADMIN });
    const text = textOf((await admin.sub('shop-admin', 'insights')).message!);
    expect(text).toContain(en.insights.countingOff);
    expect(text).toContain(en.insights.headlineNone);
    expect(text).toContain(en.insights.funnelLine(en.insights.steps.open, 0, undefined));
  });
});
