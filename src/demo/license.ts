/** What carts, link records and the store directory call the demo's "license": never a real key's fingerprint (8 hex). */
export const DEMO_LICENSE = 'demo';
