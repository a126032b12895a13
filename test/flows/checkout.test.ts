import { InteractionResponseType } from 'discord-api-types/v10';
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { DEFAULT_MEMBER_PERMISSIONS } from '../fakes/discord/fake-discord.js';
import { findVariant, landmarks } from '../fakes/spaceis/fixtures.js';
import { addToCart, Member, openVariant, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { MAX_PAYMENT_URL_LENGTH } from '../../src/services/payment-url.js';
import { button, buttonLabels, buttons, textOf } from '../support/ui.js';
import { pl } from '../../src/i18n/pl.js';

/** The default checkout cooldown is 30 s: members checking out again in a test wait it out. */
const COOLDOWN_MS = 30_000;
const COINS_370 = { server: 'Survival', category: 'Monety', product: landmarks.rangeProduct, variant: '370 monet' };

describe('checkout', () => {
  const h = useHarness();

  it('sends exactly the items and the nick, and DMs the returned link unchanged as a Pay button', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 2);
    await addToCart(member, COINS_370, 3);
    const dm = h.discord.waitForDm(member.user.id);

    const reply = await member.run('checkout', { nick: 'Steve_123' });

    const request = h.store.requestsTo('paymentUrl').at(-1)!;
    expect(request.body).toEqual({
      items: [
        { variantId: findVariant(h.store.shop, 'VIP', '30 dni').variant.id, quantity: 2 },
        { variantId: landmarks.rangeVariantId(370), quantity: 3 },
      ],
      nick: 'Steve_123',
    });
    expect(request.headers.authorization).toBe(`Bearer ${h.store.apiKey}`);

    const message = await dm;
    const url = h.store.paymentUrls.at(-1)!;
    expect(button(message, en.checkout.pay).url).toBe(url);
    expect(url).toContain('?');
    expect(textOf(message)).toContain('2 × VIP — 30 dni');
    expect(textOf(message)).toContain('3 × Pakiet monet — 370 monet');
    expect(textOf(message)).toContain('Steve\\_123');
    expect(textOf(message)).toContain('Getting this link does not mean the order is paid: when the shop reports the payment, the bot updates this message.');

    expect(reply.ephemeral).toBe(true);
    expect(reply.message!.text).toContain(en.checkout.sentToDm('Steve\\_123'));
    expect(button(reply.message!, en.checkout.openDms).url).toBe(`https://discord.com/channels/@me/${message.channel_id}`);

    // The cart is emptied and the link is kept for the moderators.
    expect(textOf((await member.run('cart')).message!)).toContain('Your cart is empty');
    const { links } = await h.bot.services.storage.paymentLinks.listForMember(h.discord.defaultGuildId, member.user.id, 0, 10);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({
      userId: member.user.id,
      guildId: h.discord.defaultGuildId,
      nick: 'Steve_123',
      url,
      createdAt: h.clock.now(),
      delivery: { kind: 'dm', channelId: message.channel_id, messageId: message.id },
      items: [
        { productName: 'VIP', variantName: '30 dni', quantity: 2 },
        { productName: 'Pakiet monet', variantName: '370 monet', quantity: 3 },
      ],
    });
    expect(textOf(message)).toContain(`Link reference: ${links[0]!.id}`);
  });

  it('asks for the nick in a modal the first time and remembers it afterwards', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30);
    const asked = await member.run('checkout');
    expect(asked.callbackType).toBe(InteractionResponseType.Modal);
    expect(asked.modal!.title).toBe(en.nick.modalTitle);

    const invalid = await member.submit({ nick: 'no spaces!' });
    expect(invalid.message!.text).toContain('“no spaces!” is not a valid Minecraft nick');
    expect(h.store.requestsTo('paymentUrl').filter((request) => (request.body as { nick?: string }).nick === 'no spaces!')).toHaveLength(0);

    await member.run('checkout');
    const dm = h.discord.waitForDm(member.user.id);
    await member.submit({ nick: ' .Bedrock_1 ' });
    await dm;
    expect((h.store.requestsTo('paymentUrl').at(-1)!.body as { nick: string }).nick).toBe('.Bedrock_1');

    // Next time: no question, the remembered nick is used; the cart's Checkout does the same.
    h.clock.advance(COOLDOWN_MS);
    await addToCart(member, VIP_30);
    const cart = await member.run('cart');
    expect(textOf(cart.message!)).toContain('Checkout as **.Bedrock\\_1**');
    const next = h.discord.waitForDm(member.user.id);
    const done = await member.press(en.cart.checkout);
    await next;
    expect(done.message!.text).toContain('is in your DMs');
    expect((h.store.requestsTo('paymentUrl').at(-1)!.body as { nick: string }).nick).toBe('.Bedrock_1');
  });

  it('refuses an invalid nick option before calling the store', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30);
    const before = h.store.requestsTo('paymentUrl').length;
    for (const nick of ['ab', 'abcdefghijklmnopq', 'Żółw', 'a.b.c']) {
      const reply = await member.run('checkout', { nick });
      expect(reply.message!.text).toContain(`“${nick}” is not a valid Minecraft nick`);
    }
    expect(h.store.requestsTo('paymentUrl').length).toBe(before);
    expect(textOf((await member.run('cart')).message!)).toContain('1 × VIP — 30 dni');
  });

  it('lets the member change the nick from the cart', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30);
    await member.run('checkout', { nick: 'FirstNick' });
    h.clock.advance(COOLDOWN_MS);
    await addToCart(member, VIP_30);
    await member.run('cart');
    const modal = await member.press(en.cart.changeNick);
    expect(modal.modal!.components[0].components[0].value).toBe('FirstNick');
    const dm = h.discord.waitForDm(member.user.id);
    await member.submit({ nick: 'SecondNick' });
    await dm;
    expect((h.store.requestsTo('paymentUrl').at(-1)!.body as { nick: string }).nick).toBe('SecondNick');
  });

  it('puts the link in the reply when the member’s DMs are closed', async () => {
    const member = new Member(h);
    h.discord.refuseDms(member.user.id);
    await addToCart(member, VIP_30);
    const reply = await member.run('checkout', { nick: 'ClosedDms' });
    expect(reply.message!.text).toContain("I couldn't send you a DM (your DMs are closed)");
    expect(button(reply.message!, en.checkout.pay).url).toBe(h.store.paymentUrls.at(-1));
    // Where the link went is noted once Discord took the reply, just after the member sees it.
    await h.bot.settled();
    const { links } = await h.bot.services.storage.paymentLinks.listForMember(h.discord.defaultGuildId, member.user.id, 0, 10);
    expect(links[0]!.delivery).toEqual({ kind: 'reply', shownInReply: true });
  });

  it('sends a link longer than 512 characters unchanged as text instead of a button', async () => {
    const member = new Member(h);
    const long = `https://sklep.example.pl/pay/long?token=${'x'.repeat(600)}&sig=a%2Fb`;
    h.store.nextPaymentUrl = () => long;
    try {
      await addToCart(member, VIP_30);
      const dm = h.discord.waitForDm(member.user.id);
      await member.run('checkout', { nick: 'LongLink' });
      const message = await dm;
      expect(buttons(message)).toHaveLength(0);
      expect(message.text).toContain(long);

      // Far longer: still whole, in its code block.
      const huge = `https://sklep.example.pl/pay/huge?token=${'y'.repeat(2500)}`;
      h.clock.advance(COOLDOWN_MS);
      h.store.nextPaymentUrl = () => huge;
      await addToCart(member, VIP_30);
      const second = h.discord.waitForDm(member.user.id);
      await member.run('checkout', { nick: 'LongLink' });
      expect(textOf(await second)).toContain(huge);
    } finally {
      h.store.nextPaymentUrl = undefined;
    }
  });

  it('does not record a link as shown in the reply when Discord refused that reply', async () => {
    const member = new Member(h);
    h.discord.refuseDms(member.user.id);
    await addToCart(member, VIP_30);
    // The edit of the deferred reply that would carry the link is refused by Discord.
    h.discord.failRoute('PATCH', /^\/webhooks\/\d+\/[^/]+\/messages\/@original$/, { status: 400, body: { code: 50035, message: 'Invalid Form Body' } });
    await member.run('checkout', { nick: 'NoReply' });
    await h.bot.settled();
    const { links } = await h.bot.services.storage.paymentLinks.listForMember(h.discord.defaultGuildId, member.user.id, 0, 10);
    expect(links).toHaveLength(1);
    // A moderator withdrawing it is not told the member saw it in a reply they never got.
    const { moderator, links: runLinks } = linkSteps(h);
    const answer = textOf((await runLinks(moderator(), 'revoke', { link: links[0]!.id })).message!);
    expect(answer).toContain(en.links.revoked(links[0]!.id, `<@${member.user.id}>`, 'NoReply'));
    expect(answer).not.toContain(en.links.shownInReply);
    expect(answer).not.toContain(en.links.replyEdited);
    expect(links[0]!.delivery).toBeUndefined();
  });

  it('refuses a link Discord cannot carry as the shop’s error, keeping the cart and recording nothing', async () => {
    const member = new Member(h);
    const unshowable = [
      `https://sklep.example.pl/pay/huge?token=${'z'.repeat(MAX_PAYMENT_URL_LENGTH)}`, // longer than a message can show beside the order
      'https://sklep.example.pl/pay/1?token=a b',
      'https://sklep.example.pl/pay/1\n?token=ab',
      'https:sklep.example.pl/pay/1',
    ];
    try {
      await addToCart(member, VIP_30, 2);
      for (const url of unshowable) {
        h.store.nextPaymentUrl = () => url;
        const reply = await member.run('checkout', { nick: 'BadLink' });
        expect(reply.message!.text).toBe(en.checkout.unshowableLink);
        h.clock.advance(COOLDOWN_MS);
      }
      expect(textOf((await member.run('cart')).message!)).toContain('1. 2 × VIP — 30 dni');
      expect(await h.bot.services.storage.paymentLinks.listForMember(h.discord.defaultGuildId, member.user.id, 0, 10)).toEqual({ links: [], total: 0 });
      // Never in the log either: it is a live payment URL.
      expect(h.logs.some((line) => line.includes('pay/1?token=a b') || line.includes('z'.repeat(100)))).toBe(false);

      // The same cart checks out as soon as the shop returns a link that can be shown.
      h.store.nextPaymentUrl = undefined;
      const dm = h.discord.waitForDm(member.user.id);
      await member.run('checkout', { nick: 'BadLink' });
      expect(buttons(await dm).map((button) => button.label)).toEqual([en.checkout.pay]);
    } finally {
      h.store.nextPaymentUrl = undefined;
    }
  });

  it('shows a valid link too long for a button in a code block, and records where it went only once Discord took it', async () => {
    const member = new Member(h);
    const longest = `https://sklep.example.pl/pay/longest?token=${'q'.repeat(MAX_PAYMENT_URL_LENGTH - 43)}`;
    expect(longest).toHaveLength(MAX_PAYMENT_URL_LENGTH);
    h.store.nextPaymentUrl = () => longest;
    try {
      await addToCart(member, VIP_30);
      const dm = h.discord.waitForDm(member.user.id);
      await member.run('checkout', { nick: 'LongLink' });
      expect(textOf(await dm)).toContain(`\`\`\`\n${longest}\n\`\`\``);
    } finally {
      h.store.nextPaymentUrl = undefined;
    }
  });

  it('says the cart is empty instead of calling the store', async () => {
    const before = h.store.requestsTo('paymentUrl').length;
    const reply = await new Member(h).run('checkout', { nick: 'Nobody' });
    expect(reply.message!.text).toBe(en.checkout.emptyCart);
    expect(h.store.requestsTo('paymentUrl').length).toBe(before);
  });

  it('in Polish, from label to DM', async () => {
    const member = new Member(h, { locale: 'pl' });
    await openVariant(member, VIP_30);
    await member.press(pl.quantity.addToCart);
    expect(textOf(member.message!)).toContain(pl.added.title);
    const cart = await member.run('cart');
    expect(buttonLabels(cart.message!)).toEqual([pl.cart.checkout, pl.gift.button, pl.cart.changeNick, pl.cart.clear, pl.links.myLinks]);
    const dm = h.discord.waitForDm(member.user.id);
    const reply = await member.run('checkout', { nick: 'Polak' });
    expect(reply.message!.text).toContain('Link do płatności dla **Polak** czeka w wiadomościach prywatnych.');
    expect(buttonLabels(await dm)).toEqual([pl.checkout.pay]);
  });

  it('acknowledges at once when the store is slow, and answers when it does', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30);
    const hold = h.store.hold('paymentUrl');
    const handle = await h.discord.slash(member.user, 'checkout', { options: { nick: 'SlowStore' } });
    const ack = await handle.acknowledged;
    await hold.reached;
    expect(ack.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource); // deferred while the store has not answered yet
    hold.release();
    const outcome = await handle.settled();
    expect(outcome.message!.text).toContain('is in your DMs');
  });

  it('issues one link for a double press on Checkout', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30);
    await member.run('checkout', { nick: 'DoublePress' }); // remember the nick
    h.clock.advance(COOLDOWN_MS);
    await addToCart(member, VIP_30);
    const cart = (await member.run('cart')).message!;
    const before = h.store.requestsTo('paymentUrl').length;
    const checkoutId = button(cart, en.cart.checkout).custom_id!;
    const dmsBefore = h.discord.messagesIn(h.discord.dmChannelOf(member.user.id)!).length;
    const [first, second] = await Promise.all([
      h.discord.click(member.user, cart, checkoutId),
      h.discord.click(member.user, cart, checkoutId),
    ]);
    await Promise.all([first.settled(), second.settled()]);
    expect(h.store.requestsTo('paymentUrl').length).toBe(before + 1);
    expect(h.discord.messagesIn(h.discord.dmChannelOf(member.user.id)!).length).toBe(dmsBefore + 1);
  });

  it('makes a member wait out the checkout cooldown, and caps links per hour, keeping the cart', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30);
    await member.run('checkout', { nick: 'Cooldown' });
    await addToCart(member, VIP_30);
    h.clock.advance(12_000);
    const before = h.store.requestsTo('paymentUrl').length;
    const early = await member.run('checkout', { nick: 'Cooldown' });
    expect(early.message!.text).toBe(en.checkout.cooldown(18));
    expect(h.store.requestsTo('paymentUrl').length).toBe(before);
    expect(textOf((await member.run('cart')).message!)).toContain('1 × VIP — 30 dni');

    // Nine more links, each after the cooldown: ten in the hour, then the cap holds.
    for (let n = 0; n < 9; n += 1) {
      h.clock.advance(COOLDOWN_MS);
      const dm = h.discord.waitForDm(member.user.id);
      await member.run('checkout', { nick: 'Cooldown' });
      await dm;
      await addToCart(member, VIP_30);
    }
    h.clock.advance(COOLDOWN_MS);
    const capped = await member.run('checkout', { nick: 'Cooldown' });
    expect(capped.message!.text).toMatch(/^You have got many payment links in the last hour\. You can get a new one in \d+ min; your cart is kept\.$/);
  });
});

describe('checkout when DMs are slow (a crowd checking out at once)', () => {
  // The DM never goes out within the wait: what every member past Discord's global limit sees.
  const h = useHarness({ dmWaitMs: 0 });

  it('shows the Pay button in the reply at once and sends exactly one DM copy after it', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 2);
    const dm = h.discord.waitForDm(member.user.id);
    const reply = await member.run('checkout', { nick: 'Crowd_1' });

    const url = h.store.paymentUrls.at(-1)!;
    expect(reply.message!.text).toContain(en.checkout.dmOnItsWay('Crowd\\_1'));
    expect(buttons(reply.message!).map((b) => [b.label, b.url])).toEqual([[en.checkout.pay, url]]);
    expect(textOf(reply.message!)).toContain(en.checkout.safety);
    const sent = await dm;
    expect(buttons(sent).map((b) => [b.label, b.url])).toEqual([[en.checkout.pay, url]]);

    await h.bot.settled();
    await h.bot.services.delivery.whenIdle();
    const [link] = (await h.bot.services.storage.paymentLinks.listForMember(h.discord.defaultGuildId, member.user.id, 0, 1)).links;
    expect(link!.delivery).toEqual({
      kind: 'dm',
      channelId: sent.channel_id,
      messageId: sent.id,
      display: true,
      shownInReply: true,
    });
    expect(h.discord.messagesIn(sent.channel_id).filter((message) => buttonLabels(message).includes(en.checkout.pay))).toHaveLength(1);
  });

  it('takes the Pay button out of both the DM and the reply when a moderator withdraws the link', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 1);
    const dm = h.discord.waitForDm(member.user.id);
    const reply = await member.run('checkout', { nick: 'Crowd_2' });
    const sent = await dm;
    await h.bot.settled();
    await h.bot.services.delivery.whenIdle();
    const [link] = (await h.bot.services.storage.paymentLinks.listForMember(h.discord.defaultGuildId, member.user.id, 0, 1)).links;
    expect(link!.delivery?.kind).toBe('dm');

    const mod = new Member(h, { permissions: DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageMessages });
    const answer = textOf((await mod.sub('links', 'revoke', { link: link!.id })).message!);
    expect(answer).toContain(en.links.dmEdited);
    expect(answer).toContain(en.links.replyEdited);
    expect(buttons(h.discord.message(sent.channel_id, sent.id)!)).toEqual([]);
    expect(buttons(h.discord.message(reply.message!.channel_id, reply.message!.id)!)).toEqual([]);
  });

  it('opens the member’s DM channel while they shop, so the DM with the link is a single request', async () => {
    const member = new Member(h);
    const opened = h.discord.waitForRequest('POST', /^\/users\/@me\/channels$/);
    await addToCart(member, VIP_30, 1);
    await opened;
    const before = h.discord.requests.length;
    const dm = h.discord.waitForDm(member.user.id);
    await member.run('checkout', { nick: 'Warm_DM' });
    await dm;
    const during = h.discord.requests.slice(before).map((request) => `${request.method} ${request.path}`);
    expect(during.filter((request) => request.includes('/users/@me/channels'))).toEqual([]);
    expect(during.filter((request) => /^POST \/channels\/\d+\/messages$/.test(request))).toHaveLength(1);
  });
});

