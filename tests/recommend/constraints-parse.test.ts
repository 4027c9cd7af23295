/** Trust and rating floors read from a request (src/query/nl-query-constraints.ts), and what is not one. */
import { describe, expect, it } from 'vitest';
import { findConstraints } from '../../src/query/nl-query-constraints.ts';

describe('findConstraints', () => {
  it.each([
    ['trust level 4+', 4, null],
    ['minimal level 3', 3, null],
    ['at least trust level 3', 3, null],
    ['trust level at least 2', 2, null],
    ['tingkat kepercayaan minimal 3', 3, null],
    ['level 4 ke atas', 4, null],
    ['yang terverifikasi', 3, null],
    ['verified agencies', 3, null],
    ['sangat terpercaya', 4, null],
    ['rating minimal 4', null, 4],
    ['rating 4.5+', null, 4.5],
    ['rated at least 4', null, 4],
    ['rating di atas 4,2', null, 4.2],
    ['bintang 4 ke atas', null, 4],
    ['4 stars and up', null, 4],
    ['4+ stars', null, 4],
    ['at least 4 stars', null, 4],
    ['minimal level 3 dan rating minimal 4.5', 3, 4.5],
  ])('%s', (text, trust, rating) => {
    const c = findConstraints(text);
    expect(c.minTrustLevel).toBe(trust);
    expect(c.minRating).toBe(rating);
    expect(c.read.length).toBeGreaterThan(0);
    expect(c.rest.trim()).not.toMatch(/\d/);
  });

  it.each([
    'website for a 5 star hotel',
    'IT support level 2 for our office',
    'top 10 SEO agency',
    'ISO 27001 audit',
    'aplikasi android budget 20 juta',
    'trust level 9', // out of range
  ])('reads no constraint from "%s"', (text) => {
    const c = findConstraints(text);
    expect(c.minTrustLevel).toBeNull();
    expect(c.minRating).toBeNull();
  });
});
