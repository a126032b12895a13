import { param, route } from '../../src/discord/routes.js';

/** The moderators' /links screens. */
export const linksRoutes = {
  /** Previous / Next through one member's links. */
  memberPage: route('links.memberPage', { kind: 'button', scope: 'links', code: 'page', params: { member: param.snowflake, page: param.int(10_000) } }),
};
