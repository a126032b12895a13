import { REVIEW_REF_LENGTH } from '../../services/payment-watch/review.js';
import { route, type Param } from '../routes.js';

/**
 * The moderators' "this link was paid" button on a purchase waiting for staff (the log post, and
 * /links user). Public (anyone sees the log post), so the id carries no owner; the handler checks
 * the presser is a moderator. `v1:links:rv:-:<ref>:<link>`: about 40 characters.
 */
const reviewRef: Param<string> = {
  maxLength: REVIEW_REF_LENGTH,
  encode: (value) => value,
  decode: (text) => (new RegExp(`^[A-Za-z0-9_-]{${REVIEW_REF_LENGTH}}$`).test(text) ? text : undefined),
};
/** A link reference: 8 characters of Crockford base32 (storage/payment-link-record.ts), a little room kept. */
const linkId: Param<string> = {
  maxLength: 16,
  encode: (value) => value,
  decode: (text) => (/^[0-9A-Z]{1,16}$/.test(text) ? text : undefined),
};

export const reviewRoutes = {
  confirm: route('links.confirmPayment', { kind: 'button', scope: 'links', code: 'rv', access: 'anyone', params: { ref: reviewRef, link: linkId } }),
};
