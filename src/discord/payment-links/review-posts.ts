import type { ReviewNotices } from '../../services/payment-watch/review.js';
import type { GuildLog } from '../guild-log.js';
import { reviewLogView } from './review-view.js';

/** The log channel's post for a purchase waiting for staff (made once per guild: review.ts claims it first). */
export function reviewNotices(guildLog: Pick<GuildLog, 'postView'>): ReviewNotices {
  return {
    post: (guildId, review) => guildLog.postView(guildId, 'payment-review', (t) => reviewLogView(t, review)),
  };
}
