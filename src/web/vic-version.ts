/**
 * The VIC card's versions, apart from the card builder so the header rules
 * (src/site/static-headers.ts) can import them without pulling in the projections.
 * vicVersion: integer, bumped on any change to the card's fields (2: trust.overallRating
 * is null for a provider without reviews).
 */
export const VIC_VERSION = 2;
export const VIC_SCHEMA_VERSION = '2.0.0';
