/** The languages the bot speaks (Discord's `pl` for Polish clients, English for every other). */
export type Locale = 'en' | 'pl';
