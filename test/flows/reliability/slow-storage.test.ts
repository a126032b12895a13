import { InteractionResponseType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { Member, openVariant, VIP_30 } from '../../support/buyer.js';
import { useHarness } from '../../support/harness.js';
import { button, textOf } from '../../support/ui.js';
import { en } from '../../../src/i18n/en.js';

/**
 * Storage that is slow below a handler (a record lock another process holds, a stuck disk) must
 * not cost the member "This interaction failed": the router acknowledges for a handler still
 * silent near Discord's 3 s limit, and the answer follows as an edit. The delay is shortened here.
 */
describe('when storage is slow under a handler', () => {
  const h = useHarness({ ackGuardMs: 20 });

  it('acknowledges the press before the cart write returns, then shows the cart as usual', async () => {
    const member = new Member(h);
    await openVariant(member, VIP_30);
    const held = h.storage.holdWrites((key) => key.includes(`cart:`));

    const press = await h.discord.click(member.user, member.message!, button(member.message!, en.quantity.addToCart).custom_id!);
    await held.reached;
    // Still waiting on storage, yet Discord already has its answer: the menu shows "thinking".
    expect((await press.acknowledged).type).toBe(InteractionResponseType.DeferredMessageUpdate);

    held.release();
    const outcome = await press.settled();
    expect(textOf(outcome.message!)).toContain('VIP');
    expect(textOf((await member.run('cart')).message!)).toContain('30 dni');
  });
});
