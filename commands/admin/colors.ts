/** The admins' embeds are violet; the public panel is the shop's green. */
export const ADMIN_COLOR = 0x5f3dc4;
export const PANEL_COLOR = 0x2b8a3e;
