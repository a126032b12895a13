/**
 * English catalog. The Polish one (pl.ts) is typed against this object, so a key missing
 * in either language fails the type check. Texts are functions where they take values.
 * Store texts (product names, API messages) are passed in already formatted and quoted by
 * the views; nothing here may say or imply that an order was paid.
 */
export const en = {
  commands: {
    shop: { name: 'shop', description: "Browse the shop's offer and add items to your cart" },
    shopServer: { name: 'server', description: 'Go straight to one server (name or slug)' },
    cart: { name: 'cart', description: 'Show your cart, change quantities or check out' },
    checkout: { name: 'checkout', description: 'Get a payment link for your cart in your DMs' },
    checkoutNick: { name: 'nick', description: 'Your Minecraft nick (3–16 letters, digits or _)' },
  },

  common: {
    previous: 'Previous',
    next: 'Next',
    back: 'Back',
    page: (page: number, pages: number) => `Page ${page} of ${pages}`,
    notYourMenu: 'This menu belongs to someone else. Use /shop or /cart to open your own.',
    expired: 'This menu is out of date. Open it again with /shop or /cart.',
    internalError: (reference: string) =>
      `Something went wrong on our side. Your cart is safe. If it happens again, give the server's staff this reference: ${reference}`,
  },

  shop: {
    title: 'Shop',
    chooseServer: 'Choose a server.',
    chooseServerPlaceholder: 'Choose a server',
    chooseCategory: 'Choose a category.',
    chooseCategoryPlaceholder: 'Choose a category',
    chooseProduct: 'Choose a product.',
    chooseProductPlaceholder: 'Choose a product',
    chooseVariant: 'Choose a variant.',
    chooseVariantPlaceholder: 'Choose a variant',
    noServers: 'This shop has no servers on offer yet.',
    unknownServer: (input: string) => `There is no server called “${input}” in this shop. Pick one from the list.`,
    noCategories: 'This server has nothing on offer yet.',
    noProducts: 'This category has no products yet.',
    noVariants: 'This product has no variants on offer right now.',
    priceFrom: (price: string) => `from ${price}`,
    unavailable: 'Unavailable: no payment method',
    variantUnavailable: (variant: string) =>
      `“${variant}” can't be bought right now: the shop offers no payment method for it. Pick another variant.`,
    itemGone: 'That item is no longer in the shop. Here is the current offer.',
  },

  quantity: {
    title: (product: string, variant: string) => `${product} — ${variant}`,
    price: 'Price',
    priceEach: (price: string) => `${price} each (indicative)`,
    quantity: 'Quantity',
    placeholder: 'Choose a quantity',
    option: (n: number) => `${n} ×`,
    other: 'Other amount…',
    otherDescription: 'Type any amount from 1 to 99',
    modalTitle: 'Quantity',
    modalLabel: 'How many? (1–99)',
    invalid: (input: string) => `“${input}” is not a quantity. Type a whole number from 1 to 99.`,
    addToCart: 'Add to cart',
    total: 'Total',
  },

  added: {
    title: 'Added to your cart',
    line: (quantity: number, variant: string, product: string) => `${quantity} × ${variant} (${product})`,
    lineTotal: (quantity: number) => `This line of your cart now has ${quantity}.`,
    capped: (max: number) => `A line holds at most ${max} units, so this line was set to ${max}.`,
    cartSize: (lines: number) => (lines === 1 ? 'Your cart has 1 line.' : `Your cart has ${lines} lines.`),
    viewCart: 'View cart',
    continueShopping: 'Continue shopping',
  },

  cart: {
    title: 'Your cart',
    empty: 'Your cart is empty. Use /shop to browse the offer.',
    openShop: 'Open shop',
    line: (quantity: number, variant: string, product: string) => `${quantity} × ${variant} — ${product}`,
    linesHeading: (lines: number, max: number) => `Items (${lines} of ${max} lines)`,
    estimateHeading: 'Estimated total by payment method',
    estimateNote:
      'An estimate only: the shop computes the final amount on the payment page, from its current prices.',
    noCommonMethod:
      'No payment method is offered for every item in this cart; the payment page will show what is possible.',
    pricesUnavailable: 'Prices could not be loaded right now; the payment page will show the amount.',
    chooseLine: 'Change a line…',
    lineOption: (quantity: number, variant: string) => `${quantity} × ${variant}`,
    clear: 'Clear cart',
    clearConfirm: (lines: number) =>
      lines === 1 ? 'Remove the 1 line from your cart?' : `Remove all ${lines} lines from your cart?`,
    clearYes: 'Yes, clear it',
    cancel: 'Cancel',
    cleared: 'Your cart is now empty.',
    checkout: 'Checkout',
    changeNick: 'Change nick',
    nickHint: (nick: string) => `Checkout as **${nick}**. To use another nick, press “Change nick”.`,
    remove: 'Remove',
    backToCart: 'Back to cart',
    editLine: (variant: string, product: string) => `${variant} — ${product}`,
    lineGone: 'That line is no longer in your cart.',
    goneMark: 'no longer on offer: remove it',
    licenseChanged: "The shop's offer changed, so items from the previous offer were removed from your cart.",
  },

  rules: {
    cartFull: (max: number) => `Your cart already has ${max} lines, the most one order can hold. Check out or remove a line first.`,
    otherServer: (server: string) =>
      `Your cart holds items from ${server}, and this shop sells one server per order. Check out or clear your cart first.`,
    otherLicense: 'Your cart holds items from a different shop. Check out or clear your cart first.',
    quantityRange: (min: number, max: number) => `The quantity must be a whole number from ${min} to ${max}.`,
    alreadyAtMax: (max: number) => `This line already has ${max} units, the most one line can hold.`,
  },

  nick: {
    modalTitle: 'Your Minecraft nick',
    label: 'Minecraft nick',
    placeholder: 'e.g. Steve_123',
    invalid: (input: string) =>
      `“${input}” is not a valid Minecraft nick: use 3–16 letters, digits or _ (the first character may also be a dot).`,
  },

  checkout: {
    emptyCart: 'Your cart is empty, so there is nothing to check out. Use /shop to add items.',
    working: 'Asking the shop for your payment link…',
    sentToDm: (nick: string) =>
      `Your payment link for **${nick}** is in your DMs. The shop shows the final amount on the payment page.`,
    dmClosed: (nick: string) =>
      `I couldn't send you a DM (your DMs are closed), so here is your payment link for **${nick}**.`,
    cooldown: (seconds: number) => `You just got a payment link. You can get a new one in ${seconds} s; your cart is kept.`,
    hourlyLimit: (seconds: number) =>
      `You have got many payment links in the last hour. You can get a new one in ${Math.ceil(seconds / 60)} min; your cart is kept.`,
    pay: 'Pay',
    openDms: 'Open DMs',
    longUrl: 'The link is too long for a button, so here it is in full:',
    dmTitle: (guild: string) => `Your order — ${guild}`,
    dmNick: 'Nick',
    dmItems: 'Items',
    dmAmount:
      'The shop computes the amount on the payment page. The bot cannot see payments: getting this link does not mean the order is paid.',
    dmReference: (id: string) => `Link reference: ${id}`,
    safety: 'Only pay through this button: staff will never send you a payment link any other way.',
  },

  log: {
    linkIssuedTitle: 'Payment link issued',
    linkIssued: (member: string, nick: string) => `${member} got a payment link for the nick **${nick}**.`,
    settingChangedTitle: 'Shop setting changed',
    settingChanged: (admin: string, setting: string, before: string, after: string) =>
      `${admin} changed **${setting}**: ${before} → ${after}`,
    licenseProblemTitle: 'The shop license has a problem',
    licenseProblem: (status: number, message: string | undefined) =>
      `SpaceIs answered ${status}${message ? ` (“${message}”)` : ''} while serving a buyer. Check the license with /shop-admin status.`,
    linkRevokedTitle: 'Payment link withdrawn',
    linkRevoked: (moderator: string, linkId: string, member: string) => `${moderator} withdrew link ${linkId} issued to ${member}.`,
  },

  storeErrors: {
    refused: (message: string) => `The shop refused this request: “${message}”.`,
    fieldErrors: 'Details from the shop:',
    hints: {
      'cart payments are disabled': "The shop hasn't enabled cart payments. Please tell the server's admins.",
      'invalid variant':
        'An item in your cart is no longer on offer. Open /cart and remove it, then try again.',
      'cart items must belong to one server': 'This shop accepts items from one server per order.',
      'invalid gateway': "A payment method isn't set up in the shop. Please tell the server's admins.",
      'sms payments are not available for carts': 'SMS payments cannot be used for a cart.',
      'daily purchase limit reached for this nick':
        'This nick has reached the daily purchase limit for an item in your cart. Try a smaller quantity or come back tomorrow.',
    } as Record<string, string>,
    notConfigured:
      "The shop isn't set up correctly (its license was rejected or is inactive). Please tell the server's admins; your cart is kept.",
    throttled: (seconds: number | undefined) =>
      seconds
        ? `The shop is busy right now. Please try again in ${seconds} s; your cart is kept.`
        : 'The shop is busy right now. Please try again in a moment; your cart is kept.',
    unavailable: "The shop isn't answering right now. Your cart is kept; please try again in a moment.",
    timeoutCheckout:
      "The shop didn't answer in time. Your cart is kept. Creating a link doesn't charge anything, so it is safe to try again.",
    badResponse: 'The shop sent an answer the bot could not read. Your cart is kept; please try again later.',
  },
};

export type Messages = typeof en;
